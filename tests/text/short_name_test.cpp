// SPDX-License-Identifier: Apache-2.0
// The short form of kernel names, on names that real libraries compile (kernel_names.hpp).
#include "text/short_name.hpp"

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "support/kernel_names.hpp"

namespace kerntime::text {
namespace {

using namespace kerntime::testing::kernel_names;

TEST(ShortName, PyTorchElementwiseKernelsKeepTheirQualifiedName) {
  EXPECT_EQ(short_name(kFill), "at::native::vectorized_elementwise_kernel<…>");
  EXPECT_EQ(short_name(kAdd), "at::native::vectorized_elementwise_kernel<…>");
  EXPECT_EQ(short_name(kNocast), "at::native::elementwise_kernel<…>");
}

TEST(ShortName, ShowsAsMuchOfTheTemplateArgumentsAsTheWidthHolds) {
  // Inner lists go first; a list of one plain argument stays.
  EXPECT_EQ(short_name(kFill, 200),
            "at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
            "at::detail::Array<char*, 1> >");
  EXPECT_EQ(short_name(kFill, 99),
            "at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
            "at::detail::Array<…> >");
  EXPECT_EQ(short_name("void gemm<128>(float const*, float const*, float*)"), "gemm<128>");
}

TEST(ShortName, AnonymousNamespacesLambdasAndOperatorsAreReadAsSuch) {
  // 81 columns elided: the namespaces nearest the name go first.
  EXPECT_EQ(short_name(kNormal), "at::native::…::distribution_elementwise_grid_stride_kernel<…>");
  EXPECT_EQ(short_name(kNormal, 100),
            "at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<…>");
  EXPECT_EQ(short_name("at::native::copy_kernel(at::TensorIteratorBase&)::{lambda(int)#1}::"
                       "operator()(int) const"),
            "at::native::copy_kernel(…)::{lambda(…)#1}::operator()");
  EXPECT_EQ(short_name("bool ns::operator<(ns::Key<int> const&, ns::Key<int> const&)"),
            "ns::operator<");
  EXPECT_EQ(short_name("bool ns::operator< <int>(ns::Key<int> const&, ns::Key<int> const&)"),
            "ns::operator< <int>");
  EXPECT_EQ(short_name("std::ostream& ns::operator<<(std::ostream&, ns::Key const&)"),
            "ns::operator<<");
  EXPECT_EQ(short_name("void (anonymous namespace)::scale<float>(float*, int)"),
            "(anonymous namespace)::scale<float>");
  EXPECT_EQ(short_name("std::enable_if<true, void>::type ns::run<int, 4>(int*)"),
            "ns::run<int, 4>");
}

TEST(ShortName, LibraryKernels) {
  EXPECT_EQ(short_name(kCutlass),
            "cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>");
  EXPECT_EQ(short_name(kCub), "cub::CUB_200200_800_NS::DeviceReduceKernel<…>");
  EXPECT_EQ(short_name(kThrust), "thrust::cuda_cub::core::_kernel_agent<…>");
  EXPECT_EQ(short_name(kGemv), "gemv2T_kernel_val<…>");
}

TEST(ShortName, NamesWithoutTemplatesKeepTheirTextAndLoseTheirEndToFit) {
  for (const char* name : {"triton_per_fused_native_layer_norm_0", "triton_poi_fused_add_0",
                           "ampere_sgemm_128x64_nn", "<unknown kernel>", "_Zweird|name",
                           "reduce | \"fast\"", "copy (1 MiB)", "gemm<float, 128>"}) {
    EXPECT_EQ(short_name(name), name);
  }
  EXPECT_EQ(short_name("prepare(float*, int)"), "prepare");
  // Not a signature (text after the parameters): free text keeps its parentheses, and loses
  // template arguments only when it does not fit.
  EXPECT_EQ(short_name("void k<float>(float*, int) | a_b"), "void k<float>(float*, int) | a_b");
  EXPECT_EQ(short_name("gemm<cutlass::half_t, cutlass::layout::RowMajor>(x)/M:1024", 30),
            "gemm<…>(x)/M:1024");
  EXPECT_EQ(short_name(kXmma),
            "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsi…");
  EXPECT_EQ(short_name(kXmma, 40), "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_…");
}

TEST(ShortName, UnbalancedBracketsFallBackToCuttingTheEnd) {
  const std::string cut = std::string(200, 'k') + "<int, float(";
  EXPECT_EQ(short_name(cut), std::string(71, 'k') + "…");
  EXPECT_EQ(short_name("void f<int>(float*"), "void f<int>(float*");
  // Nesting deeper than any compiler writes is not recursed into.
  const std::string deep = "f" + std::string(100000, '(') + std::string(100000, ')');
  EXPECT_EQ(short_name(deep), "f" + std::string(70, '(') + "…");
}

TEST(ShortName, NeverExceedsItsWidth) {
  for (const std::string& name :
       {kFill, kAdd, kNormal, kNocast, kCutlass, kXmma, kCub, kThrust, kGemv}) {
    for (std::size_t width = 1; width <= 130; ++width) {
      const std::string shown = short_name(name, width);
      EXPECT_LE(text_columns(shown), width) << name << " at " << width << ": " << shown;
      EXPECT_FALSE(shown.empty()) << name << " at " << width;
    }
  }
  EXPECT_EQ(text_columns("…<…>"), 4u);
}

TEST(ShortName, CollidingShortFormsAreNumberedInOrderOfFirstAppearance) {
  const std::vector<std::string> names = {kFill, "triton_poi_fused_add_0", kAdd, kFill, kCub};
  const ShortNames shown(names.size(), [&](std::size_t i) { return std::string_view{names[i]}; });
  EXPECT_EQ(shown(0), "at::native::vectorized_elementwise_kernel<…> #1");
  EXPECT_EQ(shown(1), "triton_poi_fused_add_0");
  EXPECT_EQ(shown(2), "at::native::vectorized_elementwise_kernel<…> #2");
  EXPECT_EQ(shown(3), "at::native::vectorized_elementwise_kernel<…> #1");  // the same kernel
  EXPECT_EQ(shown(4), "cub::CUB_200200_800_NS::DeviceReduceKernel<…>");
  EXPECT_TRUE(shown.shortened());
  EXPECT_TRUE(shown.numbered());
}

TEST(ShortName, ANameThatIsAnothersShortFormIsToldApartToo) {
  const std::vector<std::string> names = {"run<…>", "void run<float, 4>(float*)", "plain"};
  const ShortNames shown(
      names.size(), [&](std::size_t i) { return std::string_view{names[i]}; }, 9);
  EXPECT_EQ(shown(0), "run<…> #1");
  EXPECT_EQ(shown(1), "run<…> #2");
  EXPECT_EQ(shown(2), "plain");
}

TEST(ShortName, NumberedNamesStillFitTheirWidth) {
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i)
    names.push_back(kXmma + std::to_string(i));
  const ShortNames shown(
      names.size(), [&](std::size_t i) { return std::string_view{names[i]}; }, 40);
  // Cut to 40 columns, all twelve read alike; the numbers take the place of their end.
  EXPECT_EQ(shown(0), "sm90_xmma_gemm_bf16bf16_bf16f32_f32… #1");
  EXPECT_EQ(shown(11), "sm90_xmma_gemm_bf16bf16_bf16f32_f32… #12");
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_LE(text_columns(std::string{shown(i)}), 40u);
}

TEST(ShortName, NamesThatFitAreShownWholeAndCostNothing) {
  const std::vector<std::string> names = {"saxpy", "gemm<float, 128>", "BM_copy/1024"};
  const ShortNames shown(names.size(), [&](std::size_t i) { return std::string_view{names[i]}; });
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(shown(i), names[i]);
    EXPECT_EQ(shown(i).data(), names[i].data());  // a view of the name itself, no copy
  }
  EXPECT_FALSE(shown.shortened());
  EXPECT_FALSE(shown.numbered());
}

TEST(ShortName, FreeTextIsOnlyCut) {
  const std::vector<std::string> names = {"forward(x)", "step<3>", std::string(80, 'r')};
  const ShortNames shown(
      names.size(), [&](std::size_t i) { return std::string_view{names[i]}; }, 20, NameKind::text);
  EXPECT_EQ(shown(0), "forward(x)");
  EXPECT_EQ(shown(1), "step<3>");
  EXPECT_EQ(shown(2), std::string(19, 'r') + "…");
}

}  // namespace
}  // namespace kerntime::text
