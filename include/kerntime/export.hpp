// SPDX-License-Identifier: Apache-2.0
// Which of kerntime's symbols a program may link against.
//
// kerntime is compiled with -fvisibility=hidden: libkerntime.so exports only what a public header
// marks with KERNTIME_API. Everything else stays inside the library, so its internals cannot
// clash with a program's own symbols or another copy of kerntime (tests/architecture checks the
// exported list). A static link gives the same code; the mark then changes nothing.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define KERNTIME_API __attribute__((visibility("default")))
#else
#define KERNTIME_API
#endif
