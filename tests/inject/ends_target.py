#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A Python program that ends in every way a Python process can, for run_ends_gpu_test: the
Python twin of ends_target.cu. It needs nothing but the standard library and the CUDA driver
(through ctypes; its kernels are PTX text): N steps of ends_py_alpha, ends_py_beta,
ends_py_beta, a synchronize, then the end.

    ends_target.py END main|thread N

END: return exit _exit exec mp_fork mp_forkserver sigterm sigint sighup handler_sigterm
handler_sigint handler_sighup exception abort segv sigkill, sigterm_busy (a kernel of 2 s still
running when SIGTERM comes), sigwait_sigterm (SIGTERM blocked before any thread starts and taken
by signal.sigwait, then sys.exit(6)), sigwait_late_sigusr1 (SIGUSR1 blocked by the main thread
only after CUDA started, then taken by signal.sigwait), and torch_exit (the same end as _exit,
with PyTorch's kernels instead).

"thread": the CUDA work runs on another thread, and so does the end where Python lets another
thread end the process (os._exit, os.execv, os.abort, a fault); sys.exit, an exception and the
return end on the main thread after it. A signal comes while that thread is still alive, waiting
for it (Python runs its own handlers on the main thread, which waits in join()). A signal comes
from a child made by os.fork(), as from another process; SIGINT meets Python's own handler
(KeyboardInterrupt), the others the default; "handler_*" installs a handler that says so,
restores the default and sends the signal again.
"""
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time

PTX = b"""
.version 6.0
.target sm_50
.address_size 64
.visible .entry ends_py_alpha(.param .u64 data) { ret; }
.visible .entry ends_py_beta(.param .u64 data) { ret; }
.visible .entry ends_py_spin(.param .u64 ns)
{
  .reg .u64 %rd<5>;
  .reg .pred %p;
  ld.param.u64 %rd1, [ns];
  mov.u64 %rd2, %globaltimer;
WAIT:
  mov.u64 %rd3, %globaltimer;
  sub.u64 %rd4, %rd3, %rd2;
  setp.lt.u64 %p, %rd4, %rd1;
  @%p bra WAIT;
  ret;
}
"""
STEPS_AFTER_EXEC = 7
FORKED_WORKERS = 2


class Cuda:
    """The driver API calls the work needs, on whichever thread uses them."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.check(self.lib.cuInit(0), "cuInit")
        device = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
        self.context = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.context), device),
                   "cuDevicePrimaryCtxRetain")
        self.check(self.lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        module = ctypes.c_void_p()
        self.check(self.lib.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(PTX)),
                   "cuModuleLoadData")
        self.functions = {}
        for name in (b"ends_py_alpha", b"ends_py_beta", b"ends_py_spin"):
            function = ctypes.c_void_p()
            self.check(self.lib.cuModuleGetFunction(ctypes.byref(function), module, name),
                       "cuModuleGetFunction")
            self.functions[name] = function
        self.argument = ctypes.c_uint64(0)
        self.arguments = (ctypes.c_void_p * 1)(ctypes.cast(ctypes.byref(self.argument),
                                                           ctypes.c_void_p))

    @staticmethod
    def check(status, what):
        if status != 0:
            sys.stderr.write(f"ends_target.py: {what} failed: CUDA error {status}\n")
            os._exit(90)

    def launch(self, name):
        self.check(self.lib.cuLaunchKernel(self.functions[name], 4, 1, 1, 32, 1, 1, 0, None,
                                           self.arguments, None), "cuLaunchKernel")

    def spin(self, ns):
        """One kernel that runs `ns` nanoseconds of the GPU's global timer."""
        length = ctypes.c_uint64(ns)
        arguments = (ctypes.c_void_p * 1)(ctypes.cast(ctypes.byref(length), ctypes.c_void_p))
        self.check(self.lib.cuLaunchKernel(self.functions[b"ends_py_spin"], 1, 1, 1, 1, 1, 1, 0,
                                           None, arguments, None), "cuLaunchKernel")

    def synchronize(self):
        self.check(self.lib.cuCtxSynchronize(), "cuCtxSynchronize")


def work(steps):
    """N steps of three kernels, then a synchronize: every kernel has finished."""
    cuda = Cuda()
    for _ in range(steps):
        cuda.launch(b"ends_py_alpha")
        cuda.launch(b"ends_py_beta")
        cuda.launch(b"ends_py_beta")
    cuda.synchronize()
    return cuda


def torch_work(steps):
    import torch
    x = torch.zeros(1024, device="cuda")
    for _ in range(steps):
        x.add_(1.0)
        x.mul_(2.0)
    torch.cuda.synchronize()


def signal_from_outside(number, delay_s):
    """Sends `number` to this process from a child made by os.fork(), after `delay_s`."""
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    if os.fork() == 0:
        time.sleep(delay_s)
        os.kill(parent, number)
        os._exit(0)


def handler_then_default(number, frame):
    os.write(1, b"handler ran\n")
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)


def signal_of(end):
    for name, number in (("sigterm_busy", signal.SIGTERM), ("sigterm", signal.SIGTERM),
                         ("sigint", signal.SIGINT), ("sighup", signal.SIGHUP),
                         ("sigkill", signal.SIGKILL), ("sigusr1", signal.SIGUSR1)):
        if end.endswith(name):
            return number
    return 0


def worker(where, steps):
    """A multiprocessing worker: it starts CUDA itself; multiprocessing ends it with os._exit."""
    if where == "thread":
        thread = threading.Thread(target=work, args=(steps,))
        thread.start()
        thread.join()
    else:
        work(steps)


def workers(method, where, steps):
    context = multiprocessing.get_context(method)
    processes = [context.Process(target=worker, args=(where, steps))
                 for _ in range(FORKED_WORKERS)]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
        if process.exitcode != 0:
            sys.exit(93)


def ending_work(end, where, steps):
    """The work and the ends that may happen on whichever thread did it."""
    cuda = torch_work(steps) if end.startswith("torch") else work(steps)
    if end == "sigterm_busy":
        cuda.spin(2_000_000_000)  # still running when the signal comes 0.2 s later
        signal_from_outside(signal.SIGTERM, 0.2)
        return
    if end in ("_exit", "torch_exit"):
        os._exit(4)
    if end == "exec":
        os.execv(sys.executable,
                 [sys.executable, os.path.abspath(__file__), "return", where,
                  str(STEPS_AFTER_EXEC)])
    if end == "abort":
        os.abort()
    if end == "segv":
        ctypes.string_at(8)  # reads an unmapped address
    number = signal_of(end)
    if number:
        signal_from_outside(number, 1.5 if end == "sigkill" else 0.1)
        if where == "thread" and not end.startswith("sigwait"):
            time.sleep(30)  # the signal ends the process while this thread is alive


def main():
    end, where, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    number = signal_of(end)
    if end.startswith("handler_"):
        signal.signal(number, handler_then_default)
    if end == "sigwait_sigterm":
        signal.pthread_sigmask(signal.SIG_BLOCK, {number})
    if end in ("mp_fork", "mp_forkserver"):
        workers(end[3:], where, steps)
        return 0
    if where == "thread":
        # A daemon: an interpreter that a signal's exception unwinds does not wait for it.
        thread = threading.Thread(target=ending_work, args=(end, where, steps), daemon=True)
        thread.start()
        thread.join()
    else:
        ending_work(end, where, steps)
    if end == "sigwait_late_sigusr1":
        signal.pthread_sigmask(signal.SIG_BLOCK, {number})  # only now, after CUDA started
    if end.startswith("sigwait"):
        got = signal.sigwait({number})
        print(f"sigwait took signal {int(got)}", flush=True)
        sys.exit(6)
    if number:
        time.sleep(30)
        sys.stderr.write("ends_target.py: no signal ended the process within 30 s\n")
        return 97
    if end == "exit":
        sys.exit(3)
    if end == "exception":
        raise RuntimeError("ends_target.py: nobody catches this")
    if end != "return":
        sys.stderr.write(f"ends_target.py: unknown end {end}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
