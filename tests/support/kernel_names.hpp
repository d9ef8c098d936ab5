// SPDX-License-Identifier: Apache-2.0
// Kernel names that real libraries compile (PyTorch, CUTLASS, cuBLAS, CUB, thrust, Triton), as
// abi::__cxa_demangle writes them: the names kerntime's tables must make readable.
#pragma once

#include <string>

namespace kerntime::testing::kernel_names {

inline const std::string kFill =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, "
    "1>)";
inline const std::string kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
    "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)";
// normal_() of PyTorch: the kernel's template arguments are lambdas inside lambdas.
inline const std::string kNormalLambda =
    "at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, "
    "double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::"
    "operator()() const::{lambda(float)#1}";
inline const std::string kNormalTransform =
    "at::native::templates::cuda::normal_and_transform<float, float, at::CUDAGeneratorImpl*, " +
    kNormalLambda + ">(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, " + kNormalLambda +
    ")::{lambda(curandStatePhilox4_32_10*)#2}";
inline const std::string kNormalNullary =
    "at::native::(anonymous namespace)::distribution_nullary_kernel<float, float, float4, "
    "at::CUDAGeneratorImpl*, " +
    kNormalTransform + ">(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, " + kNormalTransform +
    " const&)::{lambda(int, float4)#1}";
inline const std::string kNormal =
    "void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, "
    "4, " +
    kNormalTransform + ", " + kNormalNullary + ">(long, at::PhiloxCudaState, " + kNormalTransform +
    ", " + kNormalNullary + ")";
inline const std::string kNocast =
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::"
    "BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::"
    "TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::"
    "binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::"
    "gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::"
    "binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<"
    "float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)"
    "#1})";
inline const std::string kCutlass =
    "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(cutlass_80_"
    "tensorop_s1688gemm_64x64_32x6_tn_align4::Params)";
inline const std::string kXmma =
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
    "segment_k_off_kernel__5x_cublas";
inline const std::string kCub =
    "void cub::CUB_200200_800_NS::DeviceReduceKernel<cub::CUB_200200_800_NS::DeviceReducePolicy<"
    "float, float, int, cub::CUB_200200_800_NS::Sum>::Policy600, float*, float*, int, "
    "cub::CUB_200200_800_NS::Sum>(float*, float*, int, cub::CUB_200200_800_NS::GridEvenShare<int>, "
    "cub::CUB_200200_800_NS::Sum)";
inline const std::string kThrust =
    "void thrust::cuda_cub::core::_kernel_agent<thrust::cuda_cub::__parallel_for::"
    "ParallelForAgent<thrust::cuda_cub::__fill::functor<thrust::device_ptr<int>, int>, unsigned "
    "long>, thrust::cuda_cub::__fill::functor<thrust::device_ptr<int>, int>, unsigned "
    "long>(thrust::"
    "cuda_cub::__fill::functor<thrust::device_ptr<int>, int>, unsigned long)";
inline const std::string kGemv =
    "void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false, "
    "cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<float const>, "
    "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> "
    ">(cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<float const>, "
    "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>, "
    "float, float)";

}  // namespace kerntime::testing::kernel_names
