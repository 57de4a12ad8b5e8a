"""Terminal view of ``ncclDoctor env``: settings in force, the defaults that matter, the
InfiniBand retry arithmetic and a one-line health summary. Findings and the verdict are
rendered by ``report.console`` like every other command's."""

from __future__ import annotations

from typing import Any

from ncclDoctor.report.model import Report


def settings_lines(report: Report) -> list[str]:
    lines = ["# Distributed settings in force"]
    if not report.settings:
        lines.append("  (none of NCCL_*, TORCH_NCCL_*, TORCH_FR_*, TORCH_DISTRIBUTED_*, GLOO_*, MASTER_* is set)")
    for s in report.settings:
        src = "" if s.get("source", "environment") == "environment" else f"  [{s['source']}]"
        status = "" if s["status"] == "current" else f"  ({s['status']})"
        lines.append(f"  {s['name']}={s['value']}{status}{src}")
        lines.append(f"      {s['meaning']}")
    defaults = report.results.get("defaults") or []
    if defaults:
        lines.append("# Defaults in force (not set)")
        width = max(len(d["name"]) for d in defaults)
        lines.extend(f"  {d['name']:<{width}}  {d['default']}" for d in defaults)
    lines.append(_ib_line(report.results.get("ib_retry_window") or {}, report.results.get("pg_timeout_s")))
    lines.append(_health_line(report.host))
    return lines


def _ib_line(w: dict[str, Any], pg_timeout_s: float | None) -> str:
    if not w:
        return "# InfiniBand retry window: unknown"
    head = (f"# InfiniBand retry window: NCCL_IB_TIMEOUT={w['ib_timeout']} ({w['ib_timeout_source']}), "
            f"NCCL_IB_RETRY_CNT={w['retry_cnt']} ({w['retry_cnt_source']})")
    if w.get("infinite"):
        return head + " -> never times out"
    if w.get("window_s") is None:
        return head + " -> out of range, see findings"
    vs = f" vs collective timeout {pg_timeout_s:g} s" if pg_timeout_s else ""
    capped = " (retry count capped at 7)" if w["retry_cnt"] > 7 else ""
    return head + (f" -> 4.096 us x 2^{w['ib_timeout']} = {w['per_try_s']:.3g} s per try, {w['window_s']:.3g} s in "
                   f"all{capped}{vs}")


def _health_line(host: dict[str, Any]) -> str:
    gpus = host.get("gpus") or {}
    ib = host.get("ib") or {}
    g = f"{gpus['count']} GPU(s), driver {gpus.get('driver')}" if "devices" in gpus else ("GPUs skipped "
            f"({gpus.get('skipped', 'unknown')})")
    if "hcas" in ib:
        ports = [p for h in ib["hcas"] for p in h["ports"]]
        active = sum(1 for p in ports if p.get("state") == "ACTIVE")
        i = f"{len(ib['hcas'])} RDMA device(s), {active}/{len(ports)} port(s) ACTIVE"
    else:
        i = f"RDMA skipped ({ib.get('skipped', 'unknown')})"
    shm = host.get("dev_shm") or {}
    s = f"/dev/shm {shm['total_bytes'] / (1 << 30):.1f} GiB" if "total_bytes" in shm else "/dev/shm skipped"
    memlock = (host.get("ulimit_memlock") or {}).get("soft")
    ml = f"{memlock / (1 << 20):g} MiB" if isinstance(memlock, int) else memlock
    return f"# Host: {g}; {i}; {s}; locked memory (ulimit -l) {ml}"
