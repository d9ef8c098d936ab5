# SPDX-License-Identifier: Apache-2.0
# The package as installed: importable without a GPU, the C++ error type, the command and the
# injection library beside it, the type stubs.
import ast
import importlib.metadata
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import kerntime
from kerntime import _kerntime

PACKAGE = Path(kerntime.__file__).parent


def test_error_is_a_runtime_error_of_the_bindings():
    assert kerntime.Error is _kerntime.Error
    assert issubclass(kerntime.Error, RuntimeError)
    assert "one line" in kerntime.Error.__doc__


def test_version_is_the_project_version():
    # The one home of the version is project() in CMakeLists.txt; the wheel's metadata reads it.
    cmake = (Path(__file__).parents[2] / "CMakeLists.txt").read_text()
    assert f"project(kerntime VERSION {kerntime.__version__} " in cmake
    assert importlib.metadata.version("kerntime") == kerntime.__version__


def test_every_exported_name_exists():
    missing = [name for name in kerntime.__all__ if not hasattr(kerntime, name)]
    assert missing == []


def test_the_kerntime_command_is_installed_as_a_script():
    command = Path(sysconfig.get_path("scripts")) / "kerntime"
    assert command.is_file() and os.access(command, os.X_OK)
    done = subprocess.run([str(command), "--version"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert kerntime.__version__ in done.stdout


def test_kerntime_run_finds_its_injection_library_beside_the_command():
    # The command looks at ../lib beside itself (cli/run_command.cpp).
    scripts = Path(sysconfig.get_path("scripts"))
    assert (scripts.parent / "lib" / "libkerntime_inject.so").is_file()
    # and what it preloads, so that _exit and exec still write reports, beside that
    assert (scripts.parent / "lib" / "libkerntime_preload.so").is_file()


def test_the_library_is_beside_the_module():
    assert (PACKAGE / "libkerntime.so").is_file()
    assert list(PACKAGE.glob("_kerntime*.so"))


def test_stubs_and_marker_are_installed_and_name_every_binding():
    assert (PACKAGE / "py.typed").is_file()
    stub = ast.parse((PACKAGE / "_kerntime.pyi").read_text())
    declared = {node.name for node in stub.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    public = {name for name in dir(_kerntime) if not name.startswith("_")}
    assert public - declared == set()


def test_import_needs_no_gpu_and_starts_no_cuda_work():
    # A fresh interpreter: importing must not touch the GPU (no engine, no tracer, no session).
    code = "import kerntime, kerntime._process as p; print(p._engine is None and p._tracer is None)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_declared_work_has_bytes_flops_and_elements():
    work = _kerntime.Work()
    work.bytes, work.flops, work.elements = 8.0, 2.0, 1.0
    assert (work.bytes, work.flops, work.elements) == (8.0, 2.0, 1.0)
    assert "elements_per_s" in dir(_kerntime.Throughput)


def _in_nvidia_packages(name):
    """The files called `name` that NVIDIA's pip packages (nvidia-cuda-runtime, ...) installed."""
    found = set()
    for dist in importlib.metadata.distributions():
        if (dist.metadata["Name"] or "").lower().startswith("nvidia-cuda-"):
            found |= {Path(f.locate()).resolve() for f in dist.files or [] if f.name == name}
    return found


def _cupti_answers(path):
    """Whether the CUPTI at `path` gives its version, asked in a process of its own: one loaded
    here would count as another CUPTI client for kerntime."""
    code = (
        "import ctypes, sys; version = ctypes.c_uint();"
        "sys.exit(ctypes.CDLL(sys.argv[1]).cuptiGetVersion(ctypes.byref(version)) != 0)"
    )
    return subprocess.run([sys.executable, "-c", code, str(path)]).returncode == 0


def test_the_cuda_runtime_and_cupti_of_nvidias_packages_come_first():
    # A wheel's extras cu12 and cu13 install them (docs/python.md); the RUNPATH of the module,
    # libkerntime and the command names them before any other (python/CMakeLists.txt).
    code = "import kerntime; kerntime.cupti_availability(); print(open('/proc/self/maps').read())"
    env = {key: value for key, value in os.environ.items() if key != "KERNTIME_CUPTI_LIBRARY"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    mapped = {Path(line.split()[-1]) for line in done.stdout.splitlines() if "/lib" in line}
    runtimes = {path for path in mapped if path.name.startswith("libcudart.so")}
    assert len(runtimes) == 1, runtimes
    (runtime,) = runtimes
    if not _in_nvidia_packages(runtime.name):
        pytest.skip(f"no NVIDIA pip package installed {runtime.name} here")
    assert runtime.resolve() in _in_nvidia_packages(runtime.name)
    packaged_cupti = _in_nvidia_packages(runtime.name.replace("libcudart", "libcupti"))
    if not packaged_cupti:
        return
    if not all(_cupti_answers(path) for path in packaged_cupti):
        # Seen with CUPTI 13.5 on a machine without a driver; CUPTI 13.0 answers there.
        pytest.skip(f"NVIDIA's CUPTI does not answer cuptiGetVersion here: {packaged_cupti}")
    assert {path for path in mapped if path.name.startswith("libcupti.so")} == packaged_cupti
    # The command holds the static runtime and loads CUPTI by its soname through its own RUNPATH;
    # the dynamic loader's log names the file it loads.
    command = Path(sysconfig.get_path("scripts")) / "kerntime"
    done = subprocess.run(
        [str(command), "--version"], capture_output=True, text=True, env={**env, "LD_DEBUG": "libs"}
    )
    assert done.returncode == 0, done.stderr
    loaded = {
        Path(line.split("calling init:")[1].strip()).resolve()
        for line in done.stderr.splitlines()
        if "calling init:" in line and "libcupti.so" in line
    }
    assert loaded == packaged_cupti, done.stderr[-2000:]
