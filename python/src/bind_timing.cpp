// SPDX-License-Identifier: Apache-2.0
// Session, Region and kerntime.scope (session.hpp): a ScopedTimer as a context manager on the
// current PyTorch or CuPy stream. A scope is the one binding on a hot path (one per timed
// launch), so it is C++ from end to end: the current stream comes from PyTorch's stable C shim
// (or its Python entry point when the shim is missing), the name goes to the ScopedTimer as is,
// and `kerntime.scope(name)` hands back a scope object that nothing else holds instead of
// making one per launch.
#include <cstdint>
#include <dlfcn.h>
#include <exception>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/report.hpp>
#include <kerntime/session.hpp>

#include "bindings.hpp"

namespace kerntime::python {
namespace {

using namespace nb::literals;

// A reference kept for the life of the process.
PyObject* keep(nb::object value) {
  return value.release().ptr();
}

// The type of a Python value as messages name it ("int", "torch.cuda.Stream").
std::string python_type_name(nb::handle value) {
  return Py_TYPE(value.ptr())->tp_name;
}

cudaStream_t as_stream(nb::handle value) {
  return reinterpret_cast<cudaStream_t>(nb::cast<std::uintptr_t>(value));
}

// A stream handle the caller gave: a Python int from 0 to 2**64-1. nb::cast would throw
// std::bad_cast, which Python shows as "RuntimeError: std::bad_cast".
cudaStream_t given_stream(nb::handle value, const char* what) {
  if (!nb::isinstance<nb::int_>(value)) {
    throw nb::type_error(
        ("kerntime.scope: " + std::string{what} + " must be an int, got " + python_type_name(value))
            .c_str());
  }
  std::uintptr_t handle = 0;
  if (!nb::try_cast(value, handle)) {
    throw nb::value_error(("kerntime.scope: " + std::string{what} +
                           " must be a CUDA stream handle from 0 to 2**64-1, got " +
                           nb::cast<std::string>(nb::repr(value)))
                              .c_str());
  }
  return reinterpret_cast<cudaStream_t>(handle);
}

/// PyTorch's C shim for its current stream (torch/csrc/inductor/aoti_torch/c/shim.h), the ABI it
/// keeps stable for extensions: 0 on success, the stream of `device_index` (-1: the current
/// device) in `*stream`. In libtorch_cuda, which importing torch with CUDA has loaded.
using TorchShimStream = std::int32_t (*)(std::int32_t device_index, void** stream);

TorchShimStream find_torch_shim_stream() {
  void* library = dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_NOLOAD);
  void* symbol =
      dlsym(library != nullptr ? library : RTLD_DEFAULT, "aoti_torch_get_current_cuda_stream");
  return reinterpret_cast<TorchShimStream>(symbol);
}

/// Which stream "current" means: PyTorch's current stream once PyTorch has started CUDA, else
/// CuPy's when CuPy is imported, else the default stream. The Python objects are looked up once
/// and kept for the life of the process (never released: the interpreter may be gone by the time
/// static destructors run).
class CurrentStream {
 public:
  cudaStream_t get() {
    if (torch_raw_stream_ != nullptr) return torch_stream();
    if (modules_ == nullptr) modules_ = keep(nb::module_::import_("sys").attr("modules"));
    const nb::dict modules = nb::borrow<nb::dict>(modules_);
    if (modules.contains("torch")) {
      if (torch_initialized_ == nullptr) {
        torch_initialized_ = keep(modules["torch"].attr("cuda").attr("is_initialized"));
      }
      if (nb::cast<bool>(nb::handle{torch_initialized_}())) {
        const nb::object torch = modules["torch"];
        torch_raw_stream_ = keep(torch.attr("_C").attr("_cuda_getCurrentRawStream"));
        current_device_ = keep(nb::int_(-1));
        torch_shim_ = agreeing_shim(torch);
        return torch_stream();
      }
    }
    if (modules.contains("cupy")) {
      if (cupy_current_ == nullptr) {
        cupy_current_ = keep(modules["cupy"].attr("cuda").attr("get_current_stream"));
      }
      return as_stream(nb::handle{cupy_current_}().attr("ptr"));
    }
    return nullptr;
  }

  /// Where a PyTorch stream comes from: "shim", "python", or "" before PyTorch started CUDA.
  const char* torch_source() const {
    if (torch_raw_stream_ == nullptr) return "";
    return torch_shim_ != nullptr ? "shim" : "python";
  }

 private:
  // The shim, when it gives PyTorch's Python entry point's answer on a stream made current for
  // the check (the default stream is 0 either way, which would prove nothing); else none.
  TorchShimStream agreeing_shim(nb::handle torch) {
    const TorchShimStream shim = find_torch_shim_stream();
    if (shim == nullptr) return nullptr;
    try {
      const nb::object cuda = torch.attr("cuda");
      const nb::object current = cuda.attr("stream")(cuda.attr("Stream")());
      current.attr("__enter__")();
      bool agree = false;
      try {
        const cudaStream_t python = torch_stream();
        void* native = nullptr;
        agree = python != nullptr && shim(-1, &native) == 0 && native == python;
      } catch (const std::exception&) {
        agree = false;
      }
      current.attr("__exit__")(nb::none(), nb::none(), nb::none());
      return agree ? shim : nullptr;
    } catch (const std::exception&) {
      return nullptr;  // torch._C's entry point then serves every scope
    }
  }

  // PyTorch's getCurrentCUDAStream(-1) is the current device's stream: one call into PyTorch
  // per scope instead of two (_cuda_getDevice first), through the vectorcall protocol.
  cudaStream_t torch_stream() {
    if (torch_shim_ != nullptr) {
      void* stream = nullptr;
      if (torch_shim_(-1, &stream) == 0) return static_cast<cudaStream_t>(stream);
    }
    PyObject* handle = PyObject_CallOneArg(torch_raw_stream_, current_device_);
    if (handle == nullptr) throw nb::python_error();
    return as_stream(nb::steal(handle));
  }

  PyObject* modules_ = nullptr;
  PyObject* torch_initialized_ = nullptr;
  PyObject* current_device_ = nullptr;
  PyObject* torch_raw_stream_ = nullptr;
  PyObject* cupy_current_ = nullptr;
  TorchShimStream torch_shim_ = nullptr;
};

CurrentStream& current_stream() {
  static CurrentStream* instance = new CurrentStream();  // used with the GIL held only
  return *instance;
}

// The session of kerntime.scope() without a session: made on first use, released by
// kerntime's atexit handler (before CUDA shuts down). Only touched with the GIL held.
PyObject* default_session_object = nullptr;

nb::object default_session() {
  if (default_session_object == nullptr) {
    default_session_object = nb::type<Session>()().release().ptr();
  }
  return nb::borrow(default_session_object);
}

/// Room for one open ScopedTimer inside a Scope, so that entering a scope allocates nothing.
/// ScopedTimer cannot move; a Scope moves only while closed (when nanobind takes it over).
class TimerSlot {
 public:
  TimerSlot() = default;
  TimerSlot(TimerSlot&& other) noexcept { (void)other; }  // a closed slot holds nothing to move
  TimerSlot& operator=(TimerSlot&&) = delete;
  ~TimerSlot() { close(); }

  bool open() const { return open_; }
  template <class... Args>
  void emplace(Args&&... args) {
    new (storage_) ScopedTimer(std::forward<Args>(args)...);
    open_ = true;
  }
  void close() {
    if (!open_) return;
    open_ = false;
    reinterpret_cast<ScopedTimer*>(storage_)->~ScopedTimer();
  }

 private:
  alignas(ScopedTimer) unsigned char storage_[sizeof(ScopedTimer)];
  bool open_ = false;
};

/// A ScopedTimer as a reusable context manager: each `with` opens one timer and closes it.
class Scope {
 public:
  // The arguments are checked before the default session is made: a wrong type is the caller's
  // mistake (TypeError naming the argument) whether or not CUDA works here.
  Scope(nb::handle target, nb::handle stream, nb::handle session) {
    if (!session.is_none() && !nb::isinstance<Session>(session)) {
      throw nb::type_error(("kerntime.scope: session must be a kerntime.Session or None, got " +
                            python_type_name(session))
                               .c_str());
    }
    // A str first: `with kerntime.scope("name"):` makes a scope per launch.
    if (PyUnicode_Check(target.ptr())) {
      name_ = nb::cast<std::string>(target);
    } else if (nb::isinstance<Region>(target)) {
      region_ = nb::cast<Region>(target);
    } else {
      throw nb::type_error(("kerntime.scope: name must be a str or a Session.region(), got " +
                            python_type_name(target))
                               .c_str());
    }
    explicit_stream_ = !stream.is_none();
    if (explicit_stream_) stream_ = stream_from_python(stream);
    owner_ = session.is_none() ? default_session() : nb::borrow(session);
    session_ = nb::cast<Session*>(owner_);
  }
  Scope(Scope&&) noexcept = default;

  void enter() {
    if (timer_.open()) {
      throw Error("kerntime.scope(\"" + name_ +
                  "\") is already open; nest two scope objects instead of entering one twice");
    }
    const cudaStream_t stream = explicit_stream_ ? stream_ : current_stream().get();
    if (region_) {
      timer_.emplace(*session_, *region_, stream);
    } else {
      timer_.emplace(*session_, std::string_view{name_}, stream);
    }
  }

  void exit() { timer_.close(); }
  bool is_open() const { return timer_.open(); }

  const std::string& name() const { return name_; }
  nb::object session() const { return owner_; }

 private:
  nb::object owner_;
  Session* session_ = nullptr;
  std::string name_;
  std::optional<Region> region_;
  bool explicit_stream_ = false;
  cudaStream_t stream_ = nullptr;
  TimerSlot timer_;
};

nb::object new_scope(nb::handle name, nb::handle stream, nb::handle session) {
  return nb::cast(Scope(name, stream, session), nb::rv_policy::move);
}

/// The scope objects of `kerntime.scope(name)` on the default session and the current stream, by
/// name. One is handed out again only while the cache holds the only reference to it: then no
/// other thread, coroutine or variable can enter it, and a `with` block has let go of it. A
/// nested scope of the same name, or one a caller keeps, gets a new object. Touched with the GIL
/// held only; not used where there is no GIL (free-threaded Python).
class ScopeCache {
 public:
  static constexpr Py_ssize_t kMaxNames = 1024;  // names made per launch must not grow it forever

  nb::object get(nb::handle name) {
#ifndef Py_GIL_DISABLED
    if (!PyUnicode_CheckExact(name.ptr())) return new_scope(name, nb::none(), nb::none());
    if (scopes_ == nullptr) scopes_ = PyDict_New();
    if (scopes_ == nullptr) throw nb::python_error();
    PyObject* cached = PyDict_GetItemWithError(scopes_, name.ptr());  // borrowed
    if (cached == nullptr && PyErr_Occurred()) throw nb::python_error();
    if (cached != nullptr && Py_REFCNT(cached) == 1) {
      if (!nb::inst_ptr<Scope>(cached)->is_open()) return nb::borrow(cached);
      // Entered and let go of without __exit__: dropped here, so that its timer closes now, as
      // it would have when its last reference went without the cache.
      if (PyDict_DelItem(scopes_, name.ptr()) != 0) throw nb::python_error();
      cached = nullptr;
    }
    nb::object fresh = new_scope(name, nb::none(), nb::none());
    if (cached == nullptr && PyDict_GET_SIZE(scopes_) < kMaxNames &&
        PyDict_SetItem(scopes_, name.ptr(), fresh.ptr()) != 0) {
      throw nb::python_error();
    }
    return fresh;
#else
    return new_scope(name, nb::none(), nb::none());
#endif
  }

  /// Drops every cached scope (and with them their references to the default session).
  void clear() {
    if (scopes_ != nullptr) PyDict_Clear(scopes_);
  }

 private:
  PyObject* scopes_ = nullptr;  // kept for the life of the process, as CurrentStream's objects
};

ScopeCache& scope_cache() {
  static ScopeCache* instance = new ScopeCache();
  return *instance;
}

}  // namespace

cudaStream_t stream_from_python(nb::handle stream) {
  if (stream.is_none()) return nullptr;
  if (nb::isinstance<nb::int_>(stream)) return given_stream(stream, "stream");
  if (nb::hasattr(stream, "cuda_stream")) {
    return given_stream(stream.attr("cuda_stream"), "stream.cuda_stream");
  }
  if (nb::hasattr(stream, "ptr")) return given_stream(stream.attr("ptr"), "stream.ptr");
  throw nb::type_error(
      ("kerntime.scope: stream must be None (the current stream), an integer CUDA stream "
       "handle, or an object with cuda_stream (torch.cuda.Stream) or ptr (cupy.cuda.Stream), "
       "got " +
       python_type_name(stream))
          .c_str());
}

void bind_timing(nb::module_& m) {
  nb::class_<Region>(m, "Region",
                     "A region name registered with a Session (Session.region()); timing "
                     "through it skips the name lookup. It belongs to the Session that made it.")
      .def_prop_ro("id", &Region::id);

  nb::class_<Session>(m, "Session",
                      "Collects GPU-time samples per named region (C++ kerntime::Session). It "
                      "creates its CUDA events up front and never synchronizes on its own; "
                      "results are read by report(), samples() or resolve(). Thread-safe.")
      .def(
          "__init__",
          [](Session* self, std::size_t event_pairs_per_device, const std::vector<int>& devices,
             bool nvtx_ranges, bool name_faulting_scopes) {
            SessionOptions options;
            options.event_pairs_per_device = event_pairs_per_device;
            options.devices = devices;
            options.nvtx_ranges = nvtx_ranges;
            options.name_faulting_scopes = name_faulting_scopes;
            new (self) Session(options);
          },
          "event_pairs_per_device"_a = 1024, "devices"_a = std::vector<int>{},
          "nvtx_ranges"_a = true, "name_faulting_scopes"_a = true,
          "Creates the event pools of `devices` (the current device when empty). Raises "
          "kerntime.Error when CUDA cannot be used.")
      .def("region", &Session::region, "name"_a, "Registers `name` (once) and returns its Region.")
      .def(
          "scope",
          [](nb::handle self, nb::handle target, nb::handle stream) {
            return Scope(target, stream, self);
          },
          "name"_a, "stream"_a = nb::none(),
          nb::sig("def scope(self, name: str | Region, stream: object | None = None) -> Scope"),
          "A scope timing under `name` (a str or a Region) on `stream` (the current stream when "
          "None); see kerntime.scope.")
      .def("resolve", &Session::resolve, nb::call_guard<nb::gil_scoped_release>(),
           "Waits for every timer in flight and turns it into a sample; raises the first error a "
           "scope's end could not raise.")
      .def("in_flight", &Session::in_flight, "Timers whose events have not been read yet.")
      .def("samples", &Session::samples, "name"_a, nb::call_guard<nb::gil_scoped_release>(),
           "Every sample of `name` in ns (resolving first); empty for an unknown name.")
      .def("report", &Session::report, nb::call_guard<nb::gil_scoped_release>(),
           "A Report of every region in order of registration (resolving first).");

  nb::class_<Scope>(m, "Scope",
                    "A timed scope (kerntime.scope, Session.scope): a C++ kerntime::ScopedTimer "
                    "as a context manager. `stream`: None for the current stream (PyTorch's once "
                    "it has started CUDA, else CuPy's, else the default stream), an integer "
                    "handle, a torch.cuda.Stream or a cupy.cuda.Stream. `session`: None for the "
                    "process's default session (kerntime.default_session()). Neither end "
                    "synchronizes. A scope object can be entered again after it closed.")
      .def(nb::init<nb::handle, nb::handle, nb::handle>(), "name"_a, "stream"_a = nb::none(),
           "session"_a = nb::none(),
           nb::sig("def __init__(self, name: str | Region, stream: object | None = None, "
                   "session: Session | None = None) -> None"))
      .def(
          "__enter__",
          [](nb::handle self) {
            nb::cast<Scope&>(self).enter();
            return nb::borrow(self);
          },
          nb::sig("def __enter__(self) -> Scope"),
          "Opens the timer: records its start event on the stream.")
      .def(
          "__exit__",
          [](Scope& self, nb::handle, nb::handle, nb::handle) {
            self.exit();
            return false;
          },
          "type"_a.none(), "value"_a.none(), "traceback"_a.none(),
          "Closes the timer: records its stop event; errors surface at the session's next "
          "report() or resolve().")
      .def_prop_ro("name", &Scope::name)
      .def_prop_ro("session", &Scope::session);

  m.def(
      "scope",
      [](nb::handle name, nb::handle stream, nb::handle session) -> nb::object {
        if (stream.is_none() && session.is_none()) return scope_cache().get(name);
        return new_scope(name, stream, session);
      },
      "name"_a, "stream"_a = nb::none(), "session"_a = nb::none(),
      nb::sig("def scope(name: str | Region, stream: object | None = None, session: Session | "
              "None = None) -> Scope"),
      "with kerntime.scope(\"name\"): times, as GPU time, everything enqueued on the stream "
      "inside the block (a C++ kerntime::ScopedTimer; see Scope for `stream` and `session`). "
      "Neither end synchronizes. Without a stream or a session, the scope object of a name is "
      "reused from one `with` to the next while nothing else holds it, so a scope per launch "
      "makes no object.");
  m.def("default_session", &default_session, nb::sig("def default_session() -> Session"),
        "The Session of kerntime.scope() calls without one, made on first use.");
  m.def(
      "_release_default_session",
      [] {
        scope_cache().clear();
        nb::handle session{default_session_object};
        default_session_object = nullptr;
        session.dec_ref();
      },
      "Drops the default session (kerntime does this at exit, before CUDA shuts down).");
  m.def(
      "current_stream", [] { return reinterpret_cast<std::uintptr_t>(current_stream().get()); },
      "The handle of the stream a scope without a stream times on.");
  m.def(
      "_torch_stream_source", [] { return std::string{current_stream().torch_source()}; },
      "How a scope reads PyTorch's current stream: \"shim\" (PyTorch's C shim), \"python\" "
      "(torch._C's entry point), or \"\" until PyTorch has started CUDA and a scope has run.");
}

}  // namespace kerntime::python
