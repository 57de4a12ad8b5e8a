"""``ncclDoctor explain``, ``version`` and ``launch-spec``."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer
from rich.console import Console

from ncclDoctor import __version__
from ncclDoctor.cli.app import app
from ncclDoctor.errors import UsageError

Opt = typer.Option


@app.command()
def explain(
    code: Annotated[str, typer.Argument(help="A finding code such as ENV001, or 'all' to list every rule.")],
) -> None:
    """Print a rule's full text: what it means, why it matters, how to fix it.

    Example: ncclDoctor explain LOG001
    """
    from ncclDoctor.findings import explain as explain_rule
    from ncclDoctor.findings import load_all_rules

    con = Console(highlight=False)
    if code.lower() == "all":
        for c, r in sorted(load_all_rules().items()):
            con.print(f"{c}  {r.severity.value:7}  {r.title}")
        return
    try:
        r = explain_rule(code)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None
    text = f"[bold]{r.code}[/bold] ({r.severity.value}): {r.title}\n\n[bold]Why it matters[/bold]\n{r.why}\n\n"
    text += f"[bold]How to fix[/bold]\n{r.fix}"
    con.print(text)
    if r.example:
        con.print("\n[bold]Example[/bold]")
        con.print(r.example, markup=False, highlight=False)


@app.command("launch-spec")
def launch_spec(
    slurm: Annotated[bool, Opt("--slurm", help="Print an sbatch script (srun, one ncclDoctor per node).")] = False,
    k8s: Annotated[bool, Opt("--k8s", help="Print a Kubeflow PyTorchJob manifest.")] = False,
    nodes: Annotated[int, Opt("--nodes", "--nnodes", help="Number of nodes.")] = 2,
    nproc_per_node: Annotated[
        Optional[int], Opt("--nproc-per-node", help="Ranks per node (default: the visible GPUs).")
    ] = None,
    gpus_per_node: Annotated[Optional[int], Opt("--gpus-per-node", help="GPUs to request per node.")] = None,
    image: Annotated[str, Opt("--image", help="Container image (--k8s).")] = "YOUR_IMAGE_WITH_ncclDoctor",
    time_limit: Annotated[str, Opt("--time", help="Wall-time limit (--slurm).")] = "00:15:00",
) -> None:
    """Print a ready job spec that runs `ncclDoctor check` on every node.

    Example: ncclDoctor launch-spec --slurm --nodes 4 --gpus-per-node 8 > check.sbatch
    """
    from ncclDoctor.launch import k8s as k8s_spec
    from ncclDoctor.launch import slurm as slurm_spec

    if slurm == k8s:
        raise UsageError("choose exactly one of --slurm or --k8s")
    if nodes < 1:
        raise UsageError(f"--nodes must be at least 1, got {nodes}")
    if slurm:
        sys.stdout.write(slurm_spec.sbatch_script(nodes, nproc_per_node, gpus_per_node, time_limit))
    else:
        sys.stdout.write(k8s_spec.pytorchjob_manifest(nodes, nproc_per_node, image, gpus_per_node=gpus_per_node))


@app.command()
def version() -> None:
    """Print the versions of ncclDoctor and torch.

    Example: ncclDoctor version
    """
    import torch

    print(f"ncclDoctor {__version__} (torch {torch.__version__})")
