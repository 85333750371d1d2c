"""Studies that run many seeds per condition, on this machine or a Ray cluster.

A study runs every condition (an ablation of Park et al. 2023 §6, or a combination of config
values for a sweep) with N seeds, measures each run (the interview battery, diffusion, density,
attendance) and reports each measure's mean over seeds with a 95% bootstrap interval.

Parts:
    plan: conditions (ablations, sweep combinations) and run names.
    task: one run: simulate, interview, measure, write its result (what a worker does).
    pool: workers on this machine (this process, or N processes; a dead worker's run retried once).
    cluster: Ray tasks on a cluster (Ray imported only there).
    conduct: the runs of a study, skipping those done, on the workers asked for.
    aggregate: mean and percentile-bootstrap interval over seeds.
    report: study.json (compared), study-timing.json, study.md, study.png.
    contrast: two studies side by side (``compare DIR_A DIR_B``).
"""
