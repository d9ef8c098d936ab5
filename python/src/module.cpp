// SPDX-License-Identifier: Apache-2.0
// kerntime._kerntime: the C++ API for the Python package (python/kerntime/ is the API people
// use). kerntime::Error becomes kerntime.Error, a RuntimeError with the same one-line message.
#include <kerntime/error.hpp>
#include <kerntime/version.hpp>

#include "bindings.hpp"

NB_MODULE(_kerntime, m) {
  namespace nb = nanobind;
  using namespace kerntime::python;
  m.doc() = "The bindings of kerntime's C++ library; use the kerntime package.";
  m.attr("__version__") = kerntime::kVersion;
  nb::exception<kerntime::Error> error(m, "Error", PyExc_RuntimeError);
  error.attr("__doc__") =
      "What kerntime raises: the message is one line naming what failed, why, and what to do "
      "(C++ kerntime::Error).";
  bind_reports(m);
  bind_trace(m);
  bind_engine(m);
  bind_timing(m);
}
