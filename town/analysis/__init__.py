"""Measuring a recorded run: interviews, diffusion, relationships, attendance, cost, battery, judge."""
