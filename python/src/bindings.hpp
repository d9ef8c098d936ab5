// SPDX-License-Identifier: Apache-2.0
// The nanobind module kerntime._kerntime: the public C++ API (include/kerntime/) as Python
// classes and functions. One file per concept; module.cpp binds them in dependency order (a class
// must be bound before a signature that names it).
#pragma once

#include <cstdint>
#include <nanobind/nanobind.h>

#include <cuda_runtime_api.h>

namespace kerntime::python {

namespace nb = nanobind;

/// Statistics, the environment, the report model, its JSON and its renderings.
void bind_reports(nb::module_& m);
/// Tracer, Trace and their per-kernel and per-scope summaries and tables.
void bind_trace(nb::module_& m);
/// MeasureOptions, Measurement and Engine (the Python callable as a launcher).
void bind_engine(nb::module_& m);
/// Session, Region and scope (a ScopedTimer as a context manager).
void bind_timing(nb::module_& m);

/// A CUDA stream given from Python: None (the default stream), an integer handle, or an object
/// with `cuda_stream` (torch.cuda.Stream) or `ptr` (cupy.cuda.Stream). Raises TypeError for
/// anything else, ValueError for an integer that is no handle (negative, too large).
cudaStream_t stream_from_python(nb::handle stream);

}  // namespace kerntime::python
