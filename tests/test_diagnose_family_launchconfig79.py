"""Launch settings every process shares, shown failing at start-up, in round 79.

Rules Q (last sentence), W, U (2), V (1), AE, BL (4): a setting or build every process is started with that the lines
show failing is config, culprits [], nobody innocent. Shapes read so, each with its own fix:

- torch's "No rendezvous handler for ://" (an empty scheme: the init_method / --dist_url reached init_process_group
  empty; swav-2), and "No rendezvous handler for env://" in a Windows install's traceback (the Windows build without
  env:// / tcp://: file:// and gloo; x-vlm-7). Near shape: "No rendezvous handler" with a scheme outside a Windows
  install stays config, with the generic fix of the scheme; nothing here reads a store connect.
- "Distributed package doesn't have NCCL built in" in a Windows install's traceback (accelerate's multi_gpu_launcher
  under torchrun; sd-webui-easyphoto-225): NCCL is not on Windows, gloo / WSL / one GPU. Near shape: the same line
  on a Linux install keeps the CPU-only build's fix.
- env://'s "environment variable RANK expected, but not set" (comfyui-fluxtrainer-205) and the script's own
  os.environ['RANK'] read failing (KeyError: 'RANK', longcat-video-41): the job started without its launcher; the
  fixes say to launch with torchrun / accelerate launch.
"""
from __future__ import annotations

from tests.conftest import diagnose_text as _report

_TB = "Traceback (most recent call last):\n"


def _c10d(root: str, sep: str = "/") -> str:
    return (f'  File "{root}{sep}torch{sep}distributed{sep}distributed_c10d.py", line 434, in init_process_group\n'
            "    init_method, rank, world_size, timeout=timeout\n"
            f'  File "{root}{sep}torch{sep}distributed{sep}rendezvous.py", line 82, in rendezvous\n'
            '    raise RuntimeError("No rendezvous handler for {}://".format(result.scheme))\n')


def test_an_empty_init_method_is_config_with_the_dist_url_fix(tmp_path):
    v = _report(tmp_path, _TB + '  File "main.py", line 122, in main\n    init_distributed_mode(args)\n'
                + _c10d("/opt/conda/lib/python3.6/site-packages") + "RuntimeError: No rendezvous handler for ://\n"
                )["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "empty init_method" in v["summary"] and "env://" in v["fix"] and "dist_url" in v["fix"], v


def test_no_env_handler_on_windows_names_the_windows_build(tmp_path):
    root = "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python37\\lib\\site-packages"
    v = _report(tmp_path, "| distributed init (rank 0): env://\n" + _TB + _c10d(root, "\\")
                + "RuntimeError: No rendezvous handler for env://\n")["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "use init_method file://" in v["fix"].lower() and "gloo backend" in v["fix"], v


def test_no_handler_off_windows_keeps_the_scheme_fix(tmp_path):
    v = _report(tmp_path, _TB + _c10d("/usr/lib/python3/site-packages")
                + "RuntimeError: No rendezvous handler for etcd://\n")["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "Windows" not in v["summary"] and "tcp://HOST:PORT" in v["fix"], v


_ACCEL = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 5752) of "
          "binary: {py}\n" + _TB)


def test_no_nccl_on_windows_is_config_with_the_windows_fix(tmp_path):
    py = "D:\\sdwebui\\venv\\Scripts\\python.exe"
    v = _report(tmp_path, "RuntimeError: Distributed package doesn't have NCCL built in\n" + _ACCEL.format(py=py)
                + '  File "D:\\sdwebui\\venv\\lib\\site-packages\\accelerate\\commands\\launch.py", line 646, in '
                "multi_gpu_launcher\n    distrib_run.run(args)\n")["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "NCCL not available on Windows".lower() in v["summary"].lower().replace("is not", "not"), v
    assert "gloo backend on Windows" in v["fix"] and "WSL" in v["fix"], v


def test_no_nccl_on_linux_keeps_the_cpu_build_fix(tmp_path):
    v = _report(tmp_path, "RuntimeError: Distributed package doesn't have NCCL built in\n"
                + _ACCEL.format(py="/usr/bin/python3"))["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "Windows" not in v["summary"] and "CUDA build" in v["fix"], v


def test_rank_unset_for_env_rendezvous_says_launch_with_torchrun(tmp_path):
    v = _report(tmp_path, "ValueError: Error initializing torch.distributed using env:// rendezvous: environment "
                "variable RANK expected, but not set\n")["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "launch with torchrun / accelerate launch" in v["fix"].lower(), v


def test_keyerror_rank_says_launch_with_torchrun(tmp_path):
    v = _report(tmp_path, "$ python run_image_to_video.py --image_path car.png\n" + _TB
                + '  File "run_image_to_video.py", line 42, in generate\n    rank = int(os.environ[\'RANK\'])\n'
                '  File "/opt/conda/lib/python3.10/os.py", line 680, in __getitem__\n'
                "    raise KeyError(key) from None\n"
                "KeyError: 'RANK'\n")["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "launch with torchrun" in v["fix"].lower(), v
