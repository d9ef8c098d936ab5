// SPDX-License-Identifier: Apache-2.0
// GPU tests of the sample kernels: each result against a CPU reference on random inputs, with
// outputs poisoned beforehand (every element must be written) and guard zones around them
// (nothing else may be). Sizes include values that are not multiples of a block or a tile.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "device_buffer.hpp"
#include "kernels/samples.hpp"
#include "support/gpu_test.hpp"

namespace kerntime::samples {
namespace {

using kerntime::testing::all_equal;
using kerntime::testing::all_within;
using kerntime::testing::cuda_ok;
using kerntime::testing::DeviceBuffer;

// Unit roundoff of float: the largest relative error of one correctly rounded operation.
constexpr double kFloatUnitRoundoff = 0x1p-24;

// Uniform in [-1, 1): signs mix, so sums cancel and bugs in signs or indices show.
std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  std::mt19937 generator{seed};
  std::uniform_real_distribution<float> distribution{-1.0f, 1.0f};
  std::vector<float> values(n);
  for (float& value : values)
    value = distribution(generator);
  return values;
}

class SampleKernelTest : public kerntime::testing::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // A stream of its own, so that the tests also check the launchers honour the stream.
    cuda_ok(cudaStreamCreate(&stream_), "cudaStreamCreate");
  }

  void TearDown() override {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  // Waits for the kernels and turns an asynchronous fault into a test failure.
  void finish() { cuda_ok(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

  cudaStream_t stream_ = nullptr;
};

// --- spin and empty -------------------------------------------------------------------------

TEST_F(SampleKernelTest, SpinOfOneMillisecondLastsOneMillisecondByEvents) {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  cuda_ok(cudaEventCreate(&start), "cudaEventCreate");
  cuda_ok(cudaEventCreate(&stop), "cudaEventCreate");
  launch_spin(1000, stream_);  // loads the module outside the measurements
  finish();

  std::vector<float> milliseconds;
  for (int i = 0; i < 7; ++i) {
    cuda_ok(cudaEventRecord(start, stream_), "cudaEventRecord");
    launch_spin(1'000'000, stream_);
    cuda_ok(cudaEventRecord(stop, stream_), "cudaEventRecord");
    cuda_ok(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float elapsed = 0.0f;
    cuda_ok(cudaEventElapsedTime(&elapsed, start, stop), "cudaEventElapsedTime");
    milliseconds.push_back(elapsed);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);

  // The spin never ends early, so every sample is at least 1 ms. Events add the launch gap, about
  // 5 us on an H200 (0.5 %); the median must stay within 5 % so that one preemption by another
  // process cannot fail the test while a broken spin (wrong clock, wrong unit) still does.
  for (const float ms : milliseconds)
    EXPECT_GE(ms, 1.0f);
  std::sort(milliseconds.begin(), milliseconds.end());
  EXPECT_LT(milliseconds[milliseconds.size() / 2], 1.05f);
}

TEST_F(SampleKernelTest, EmptyKernelAndZeroLengthSpinComplete) {
  launch_empty(stream_);
  launch_spin(0, stream_);
  finish();
}

// A timer never synchronizes, so neither may the launchers: with a long spin ahead of them on
// the stream, every launcher must return while the spin still runs.
TEST_F(SampleKernelTest, LaunchersReturnWithoutWaitingForTheStream) {
  DeviceBuffer<float> a(1000);
  DeviceBuffer<float> b(1000);
  DeviceBuffer<float> c(1000);
  const auto enqueue_all = [&] {
    launch_empty(stream_);
    launch_device_copy(c.get(), a.get(), 1000 * sizeof(float), stream_);
    launch_vector_add(1000, a.get(), b.get(), c.get(), stream_);
    launch_saxpy(1000, 2.0f, a.get(), c.get(), stream_);
    launch_reduce_sum(1000, a.get(), c.get(), stream_);
    launch_transpose_naive(10, 100, a.get(), c.get(), stream_);
    launch_transpose_tiled(10, 100, a.get(), c.get(), stream_);
    launch_sgemm_naive(10, 10, 10, 1.0f, a.get(), b.get(), 0.0f, c.get(), stream_);
    launch_sgemm_tiled(10, 10, 10, 1.0f, a.get(), b.get(), 0.0f, c.get(), stream_);
  };
  // Lazy module loading may wait for running kernels, so every kernel is loaded first.
  enqueue_all();
  finish();

  launch_spin(200'000'000, stream_);  // 200 ms
  enqueue_all();
  EXPECT_EQ(cudaStreamQuery(stream_), cudaErrorNotReady)
      << "the stream drained while launchers were called: one of them synchronized";
  finish();
}

// --- device copy ----------------------------------------------------------------------------

TEST_F(SampleKernelTest, DeviceCopyCopiesEveryByteAtAnySizeAndAlignment) {
  struct Offsets {
    std::size_t dst;
    std::size_t src;
  };
  // (0, 0) and (16, 32) take the 16-byte vector path; the others the unaligned one.
  const Offsets offsets[] = {{0, 0}, {16, 32}, {1, 0}, {0, 3}, {4, 4}};
  const std::size_t sizes[] = {1, 15, 16, 17, 255, 4099, (1u << 20), (1u << 24) + 7};
  constexpr std::size_t kSlack = 32;  // room for the largest offset

  std::mt19937 generator{7};
  std::uniform_int_distribution<int> byte{0, 0xfe};  // never the poison byte
  for (const std::size_t bytes : sizes) {
    std::vector<unsigned char> source(bytes + kSlack);
    for (unsigned char& value : source)
      value = static_cast<unsigned char>(byte(generator));
    DeviceBuffer<unsigned char> src(bytes + kSlack);
    src.upload(source);
    DeviceBuffer<unsigned char> dst(bytes + kSlack);

    for (const Offsets offset : offsets) {
      SCOPED_TRACE(::testing::Message() << bytes << " bytes, dst offset " << offset.dst
                                        << ", src offset " << offset.src);
      dst.poison();
      launch_device_copy(dst.get() + offset.dst, src.get() + offset.src, bytes, stream_);
      finish();

      // Expected: the poison everywhere except the copied range.
      std::vector<unsigned char> expected(bytes + kSlack, kerntime::testing::kPoisonByte);
      std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(offset.src), bytes,
                  expected.begin() + static_cast<std::ptrdiff_t>(offset.dst));
      EXPECT_TRUE(all_equal(dst.download(), expected));
      EXPECT_TRUE(dst.guards_intact());
    }
  }
}

TEST_F(SampleKernelTest, DeviceCopyOfZeroBytesDoesNothing) {
  DeviceBuffer<unsigned char> dst(16);
  launch_device_copy(dst.get(), nullptr, 0, stream_);
  finish();
  EXPECT_TRUE(all_equal(dst.download(), std::vector<unsigned char>(16, 0xff)));
}

// --- vector add and saxpy -------------------------------------------------------------------

// 2,097,153 needs more than the 8192 blocks of 256 threads that one pass covers: the grid-stride
// loop must take the rest.
const std::size_t kVectorSizes[] = {1, 255, 256, 257, 1'000'003, 8192 * 256 + 1};

TEST_F(SampleKernelTest, VectorAddMatchesTheCpuBitForBit) {
  for (const std::size_t n : kVectorSizes) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const std::vector<float> a = random_floats(n, 1);
    const std::vector<float> b = random_floats(n, 2);
    std::vector<float> expected(n);
    for (std::size_t i = 0; i < n; ++i)
      expected[i] = a[i] + b[i];  // one IEEE add: exact match

    DeviceBuffer<float> a_device(n);
    DeviceBuffer<float> b_device(n);
    DeviceBuffer<float> c_device(n);
    a_device.upload(a);
    b_device.upload(b);
    launch_vector_add(n, a_device.get(), b_device.get(), c_device.get(), stream_);
    finish();
    EXPECT_TRUE(all_equal(c_device.download(), expected));
    EXPECT_TRUE(c_device.guards_intact());

    // In place (c aliases a), as the header allows.
    launch_vector_add(n, a_device.get(), b_device.get(), a_device.get(), stream_);
    finish();
    EXPECT_TRUE(all_equal(a_device.download(), expected));
    EXPECT_TRUE(a_device.guards_intact());
  }
}

TEST_F(SampleKernelTest, SaxpyMatchesADoubleReference) {
  const float alpha = 1.75f;
  for (const std::size_t n : kVectorSizes) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const std::vector<float> x = random_floats(n, 3);
    const std::vector<float> y = random_floats(n, 4);
    std::vector<double> expected(n);
    for (std::size_t i = 0; i < n; ++i)
      expected[i] = double{alpha} * x[i] + y[i];

    DeviceBuffer<float> x_device(n);
    DeviceBuffer<float> y_device(n);
    x_device.upload(x);
    y_device.upload(y);
    launch_saxpy(n, alpha, x_device.get(), y_device.get(), stream_);
    finish();
    // Fused or not, a*x + y in float is off by at most 2u(|a x| + |y|) (two roundings). The test
    // allows twice that: room for any rounding, far too little for a wrong term.
    EXPECT_TRUE(all_within(y_device.download(), expected, [&](std::size_t i) {
      return 4 * kFloatUnitRoundoff * (std::fabs(double{alpha} * x[i]) + std::fabs(y[i]));
    }));
    EXPECT_TRUE(y_device.guards_intact());
  }
}

// --- reduction ------------------------------------------------------------------------------

// Runs launch_reduce_sum on `x` twice into a poisoned result (the second run checks that the
// result is reset, not accumulated) and returns the result.
float reduce_on_device(const std::vector<float>& x, cudaStream_t stream) {
  DeviceBuffer<float> x_device(x.size());
  x_device.upload(x);
  DeviceBuffer<float> result(1);
  launch_reduce_sum(x.size(), x_device.get(), result.get(), stream);
  launch_reduce_sum(x.size(), x_device.get(), result.get(), stream);
  cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  EXPECT_TRUE(result.guards_intact());
  return result.download()[0];
}

TEST_F(SampleKernelTest, ReduceSumIsWithinTheDocumentedErrorBound) {
  // Around the points where the kernel switches from one element per thread (up to 256 * 1024)
  // to several, and sizes that fill no block or grid evenly.
  const std::size_t sizes[] = {1,       2,       255,     256,       257,
                               262'143, 262'144, 262'145, 1'000'003, (1u << 22) + 3};
  for (const std::size_t n : sizes) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const std::vector<float> x = random_floats(n, 5);
    double sum = 0.0;
    double sum_of_magnitudes = 0.0;
    for (const float value : x) {
      sum += value;
      sum_of_magnitudes += std::fabs(value);
    }
    // Higham's bound for summation along the kernel's longest chain of additions (reduce_sum.hpp).
    const double h = static_cast<double>(reduce_sum_addition_depth(n)) * kFloatUnitRoundoff;
    const double bound = h / (1.0 - h) * sum_of_magnitudes;

    const float result = reduce_on_device(x, stream_);
    EXPECT_LE(std::fabs(double{result} - sum), bound)
        << "result " << result << ", exact " << sum << ", relative error "
        << std::fabs(double{result} - sum) / std::fabs(sum);
  }
}

TEST_F(SampleKernelTest, ReduceSumOfOnesIsExact) {
  // Every partial sum is an integer below 2^24, so float represents all of them exactly.
  EXPECT_EQ(reduce_on_device(std::vector<float>(1'000'003, 1.0f), stream_), 1'000'003.0f);
}

TEST_F(SampleKernelTest, ReduceSumOfNothingIsZero) {
  DeviceBuffer<float> result(1);
  launch_reduce_sum(0, nullptr, result.get(), stream_);
  finish();
  EXPECT_EQ(result.download()[0], 0.0f);
}

// --- transpose ------------------------------------------------------------------------------

struct Shape {
  std::size_t rows;
  std::size_t cols;
};

// Tall, wide, single rows and columns, one off a tile either way, and a large square.
const Shape kTransposeShapes[] = {{1, 1},   {1, 37},     {37, 1},   {31, 33},  {33, 31},
                                  {64, 64}, {257, 1023}, {1000, 3}, {3, 1000}, {2048, 2048}};

template <class Launch>
void check_transpose(Launch launch, cudaStream_t stream) {
  for (const Shape shape : kTransposeShapes) {
    SCOPED_TRACE(::testing::Message() << shape.rows << " x " << shape.cols);
    const std::size_t count = shape.rows * shape.cols;
    const std::vector<float> in = random_floats(count, 6);
    std::vector<float> expected(count);
    for (std::size_t r = 0; r < shape.rows; ++r) {
      for (std::size_t c = 0; c < shape.cols; ++c)
        expected[c * shape.rows + r] = in[r * shape.cols + c];
    }

    DeviceBuffer<float> in_device(count);
    DeviceBuffer<float> out_device(count);
    in_device.upload(in);
    launch(shape.rows, shape.cols, in_device.get(), out_device.get(), stream);
    cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    EXPECT_TRUE(all_equal(out_device.download(), expected));
    EXPECT_TRUE(out_device.guards_intact());
  }
}

TEST_F(SampleKernelTest, TransposeNaiveMovesEveryElement) {
  check_transpose(launch_transpose_naive, stream_);
}

TEST_F(SampleKernelTest, TransposeTiledMovesEveryElement) {
  check_transpose(launch_transpose_tiled, stream_);
}

// --- sgemm ----------------------------------------------------------------------------------

struct GemmShape {
  std::size_t m;
  std::size_t n;
  std::size_t k;
};

// Exact tiles, one element, and every dimension off a multiple of 32 (and of 8) both ways.
const GemmShape kGemmShapes[] = {{1, 1, 1},      {7, 5, 3},       {32, 32, 32},   {33, 65, 31},
                                 {100, 300, 70}, {128, 96, 1000}, {257, 129, 513}};

// C = alpha * A * B + beta * C in double from the float inputs.
std::vector<double> reference_gemm(const GemmShape& s, float alpha, const std::vector<float>& a,
                                   const std::vector<float>& b, float beta,
                                   const std::vector<float>& c) {
  std::vector<double> result(s.m * s.n);
  for (std::size_t i = 0; i < s.m; ++i) {
    for (std::size_t j = 0; j < s.n; ++j) {
      double dot = 0.0;
      for (std::size_t p = 0; p < s.k; ++p)
        dot += double{a[i * s.k + p]} * b[p * s.n + j];
      result[i * s.n + j] =
          double{alpha} * dot + (beta == 0.0f ? 0.0 : double{beta} * c[i * s.n + j]);
    }
  }
  return result;
}

// ||C - reference||_F / ||reference||_F; NaN when C has a NaN (an element never written).
double relative_frobenius_error(const std::vector<float>& c, const std::vector<double>& reference) {
  double error = 0.0;
  double norm = 0.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    error += (c[i] - reference[i]) * (c[i] - reference[i]);
    norm += reference[i] * reference[i];
  }
  return std::sqrt(error / norm);
}

template <class Launch>
void check_sgemm(Launch launch, cudaStream_t stream) {
  // beta == 0 over a poisoned C: C must not be read (NaN would leak in) and must be fully
  // written. Then beta != 0 over a random C.
  const float coefficients[][2] = {{1.0f, 0.0f}, {1.5f, -0.5f}};
  for (const GemmShape shape : kGemmShapes) {
    for (const auto& coefficient : coefficients) {
      const float alpha = coefficient[0];
      const float beta = coefficient[1];
      SCOPED_TRACE(::testing::Message() << "m = " << shape.m << ", n = " << shape.n
                                        << ", k = " << shape.k << ", beta = " << beta);
      const std::vector<float> a = random_floats(shape.m * shape.k, 8);
      const std::vector<float> b = random_floats(shape.k * shape.n, 9);
      const std::vector<float> c = random_floats(shape.m * shape.n, 10);
      const std::vector<double> expected = reference_gemm(shape, alpha, a, b, beta, c);

      DeviceBuffer<float> a_device(a.size());
      DeviceBuffer<float> b_device(b.size());
      DeviceBuffer<float> c_device(c.size());
      a_device.upload(a);
      b_device.upload(b);
      if (beta != 0.0f) c_device.upload(c);
      launch(shape.m, shape.n, shape.k, alpha, a_device.get(), b_device.get(), beta, c_device.get(),
             stream);
      cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");

      const std::vector<float> result = c_device.download();
      // Every element finite first, so that a missed element reads as such, not as a large error.
      EXPECT_TRUE(all_within(result, expected, [](std::size_t) { return 1e30; }));
      // fp32 accumulation of k <= 1000 products of values in [-1, 1): a rounding error near
      // sqrt(k) * 2^-24 relative, about 2e-6; 1e-5 fails any wrong term, index or tile edge.
      EXPECT_LT(relative_frobenius_error(result, expected), 1e-5);
      EXPECT_TRUE(c_device.guards_intact());
    }
  }
}

TEST_F(SampleKernelTest, SgemmNaiveMatchesADoubleReference) {
  check_sgemm(launch_sgemm_naive, stream_);
}

TEST_F(SampleKernelTest, SgemmTiledMatchesADoubleReference) {
  check_sgemm(launch_sgemm_tiled, stream_);
}

// k == 0: the product is empty, so C = beta * C; scaling by 0.5 is exact.
TEST_F(SampleKernelTest, SgemmWithEmptyInnerDimensionScalesC) {
  const std::vector<float> c = random_floats(5 * 7, 11);
  std::vector<float> expected(c.size());
  for (std::size_t i = 0; i < c.size(); ++i)
    expected[i] = 0.5f * c[i];
  for (const auto launch : {launch_sgemm_naive, launch_sgemm_tiled}) {
    DeviceBuffer<float> c_device(c.size());
    c_device.upload(c);
    launch(5, 7, 0, 2.0f, nullptr, nullptr, 0.5f, c_device.get(), stream_);
    finish();
    EXPECT_TRUE(all_equal(c_device.download(), expected));
  }
}

// --- segment_sort --------------------------------------------------------------------------

// Each segment of 32 sorted as the CPU sorts it, at `key` (the element as a float or an int).
template <class T, class Key>
void check_segment_sort(const std::vector<T>& input, Key key, cudaStream_t stream) {
  std::vector<T> expected = input;
  for (std::size_t s = 0; s < expected.size(); s += kSortSegment) {
    std::sort(expected.begin() + static_cast<std::ptrdiff_t>(s),
              expected.begin() + static_cast<std::ptrdiff_t>(s + kSortSegment),
              [&key](const T& a, const T& b) { return key(a) < key(b); });
  }
  DeviceBuffer<T> data(input.size());
  data.upload(input);
  launch_segment_sort(data.get(), input.size(), stream);
  cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const std::vector<T> sorted = data.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i)
    wrong += key(sorted[i]) == key(expected[i]) ? 0 : 1;
  EXPECT_EQ(wrong, 0u) << "of " << sorted.size();
  EXPECT_TRUE(data.guards_intact());
  // In place and idempotent: sorting sorted segments changes nothing.
  launch_segment_sort(data.get(), input.size(), stream);
  cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const std::vector<T> again = data.download();
  for (std::size_t i = 0; i < again.size(); ++i)
    wrong += key(again[i]) == key(expected[i]) ? 0 : 1;
  EXPECT_EQ(wrong, 0u);
}

TEST_F(SampleKernelTest, SegmentSortSortsEverySegmentOfEveryType) {
  constexpr std::size_t n = 32 * 3001;  // not a whole number of blocks
  const std::vector<float> floats = random_floats(n, 21);
  check_segment_sort(
      floats, [](float v) { return v; }, stream_);
  std::vector<__half> halves(n);
  std::vector<std::int8_t> bytes(n);
  std::vector<std::int32_t> ints(n);
  for (std::size_t i = 0; i < n; ++i) {
    halves[i] = __float2half(floats[i]);
    bytes[i] = static_cast<std::int8_t>(static_cast<int>(floats[i] * 127.0f));
    ints[i] = static_cast<std::int32_t>(floats[i] * 1e9f);
  }
  check_segment_sort(
      halves, [](__half v) { return __half2float(v); }, stream_);
  check_segment_sort(
      bytes, [](std::int8_t v) { return static_cast<int>(v); }, stream_);
  check_segment_sort(
      ints, [](std::int32_t v) { return v; }, stream_);
}

}  // namespace
}  // namespace kerntime::samples
