"""Cut each link from memory text to behaviour (and each check of bad input) on purpose and check that a test fails.

Each mutation replaces one exact piece of source (it must occur once), runs the tests that
should catch it, and restores the file whatever happens. The script prints one line per
mutation (caught by which test, or MISSED) and exits 1 if any mutation was missed. The list
and what caught each is in docs/testing.md.

Usage::

    .venv/bin/python scripts/mutate.py            # every mutation
    .venv/bin/python scripts/mutate.py planner    # only those whose name contains "planner"
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutation:
    """One cut link: in ``file`` replace ``old`` (occurring once) by ``new``; ``tests`` should fail."""

    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTATIONS = (
    Mutation("the planner ignores memories", "town/thinking/scripted.py",
             "found = events_on(q.memories, day,", "found = events_on((), day,",
             ("tests/mind/test_plan.py",)),
    Mutation("sharing from the whole stream", "town/mind/converse.py",
             "_tellable(speaker, listener.id, listener.name, records)",
             "_tellable(speaker, listener.id, listener.name, speaker.stream.records())",
             ("tests/mind/test_converse.py",)),
    Mutation("constant importance", "town/importance.py",
             "score = int(np.clip(np.rint(float(w @ ratings / w.sum())), 1, 10))",
             "score = 5",
             ("tests/mind/test_importance.py",)),
    Mutation("a talk decision that ignores memories", "town/mind/converse.py",
             "memories=memory_views(_tellable(p, other_id, other_name, records))", "memories=()",
             ("tests/mind/test_converse.py",)),
    Mutation("the listener stores the line without who said it", "town/mind/converse.py",
             "content = told(speaker.name, absolute_days(heard_statement(line, speaker.name, speaker.spec.pronoun), ctx.now),\n"
             "                       speaker.spec.pronoun)",
             "content = line",
             ("tests/mind/test_converse.py",)),
    # bad input at the doors (docs/testing.md, "Eleven ways to break `town`")
    Mutation("texts of a JSON body unchecked", "web/params.py",
             "        return check_texts(body)", "        return body",
             ("tests/web/test_outside_text.py",)),
    Mutation("no depth bound before parsing a body", "web/params.py",
             "    if _depth(raw) > MAX_DEPTH:", "    if False:",
             ("tests/web/test_outside_text.py::test_a_body_nested_100000_deep_is_a_400",)),
    Mutation("a control event needs its payload", "web/events.py",
             "def on_control(self, message: Any = None, *_more: Any)", "def on_control(self, message: Any)",
             ("tests/web/test_outside_text.py::test_control_events_with_no_or_a_malformed_payload_are_answered",)),
    Mutation("command-line arguments unchecked", "town/cli/main.py",
             "    unfit = _unfit_argument(args, argv)", "    unfit = None",
             ("tests/test_cli_input.py::test_interview_question_that_is_not_utf8_is_one_line",
              "tests/test_cli_input.py::test_an_option_that_is_not_utf8_is_named")),
    Mutation("town file texts unchecked", "town/world/fields.py",
             "            problem = text_problem(value)  # the check every outside text passes (town.text)",
             "            problem = None",
             ("tests/test_cli_input.py::test_a_persona_file_with_a_lone_surrogate_is_refused_at_load",)),
    Mutation("steps unbounded", "town/runner/runner.py",
             "            if self._pending_steps + n > self.max_steps:", "            if False:",
             ("tests/web/test_control.py::test_a_huge_step_is_refused_and_a_day_of_steps_answers_at_once_and_pause_cancels_it",)),
    Mutation("a pause leaves the pending steps", "town/runner/runner.py",
             "            self._pending_steps = 0  # a pause also cancels the steps not yet begun", "            pass",
             ("tests/web/test_control.py::test_a_huge_step_is_refused_and_a_day_of_steps_answers_at_once_and_pause_cancels_it",)),
    Mutation("a step holds the request until its ticks are done", "web/control.py",
             "runner.step(n, timeout=0)", "runner.step(n)",
             ("tests/web/test_control.py::test_a_huge_step_is_refused_and_a_day_of_steps_answers_at_once_and_pause_cancels_it",)),
    Mutation("a look-alike player name is taken", "town/player.py",
             "    if like is not None:", "    if False:",
             ("tests/test_names.py::test_a_player_cannot_take_a_look_alike_of_a_persona_or_of_another_player",
              "tests/test_names.py::test_serve_refuses_a_look_alike_player_before_recording")),
    Mutation("look-alike persona names compared by case only", "town/scenario/load.py",
             "        for key in look_alike_keys(spec.name):", "        for key in {spec.name.casefold()}:",
             ("tests/test_names.py::test_a_town_with_two_look_alike_persona_names_is_refused",)),
    Mutation("generate unbounded", "town/generator/__init__.py",
             "    if not 1 <= n <= MAX_RESIDENTS:", "    if not 1 <= n:",
             ("tests/test_cli_input.py::test_generate_refuses_more_residents_than_a_map_holds",)),
    Mutation("interview takes an empty question", "town/cli/interview.py",
             "    if not question:", "    if False:",
             ("tests/test_cli_input.py::test_interview_refuses_an_empty_question",)),
    Mutation("interview takes any --at", "town/cli/interview.py",
             "    if not start <= when <= end:", "    if False:",
             ("tests/test_cli_input.py::test_interview_refuses_a_time_outside_the_run",)),
    Mutation("hearsay nests: a retold line keeps its teller", "town/perspective.py",
             "    names, statement = unwrap(text)  # \"Klaus",
             "    names, statement = [], text  # \"Klaus",
             ("tests/test_hearsay.py",)),
    Mutation("a reaction quotes the partner's line", "town/thinking/scripted_reply.py",
             'line=rng.choice(("How lovely!", "That\'s great to hear!")) if warm',
             'line=f"Really? {line}" if warm',
             ("tests/sim/test_talk_checks.py::test_the_party_run_reads_like_people",)),
    Mutation("an action keeps the memory text of its plan block", "town/world/objects.py",
             'return _GIST.sub(r"\\1", _GIST_IN.sub(r"(\\1)", activity))', "return activity",
             ("tests/mind/test_act_text.py",)),
    Mutation("a greeting ignores the hour", "town/thinking/scripted_talk.py",
             'return "morning" if 5 <= hour < 12 else', 'return "morning" if True else',
             ("tests/sim/test_talk_checks.py::test_a_greeting_fits_the_hour_and_the_history",)),
    Mutation("a goodbye names a plan item already past", "town/thinking/scripted_talk.py",
             'if now and t > f"{now:%H:%M}"\n', "if now\n",
             ("tests/sim/test_talk_checks.py::test_a_goodbye_names_a_plan_item_still_ahead",)),
    Mutation("a whisper is stored as typed (second person)", "town/simulation/timeline.py",
             "thought = inner_voice(text)", "thought = text",
             ("tests/sim/test_talk_checks.py::test_a_second_person_whisper_is_stored_in_the_first_person",)),
    Mutation("reply with a reaction (a question is not answered)", "town/thinking/scripted_talk.py",
             "reply = answer_question(last, q, now, news)", "reply = react(last, q, now, rng)",
             ("tests/sim/test_player_questions.py",)),
    Mutation("routine sightings are passed on as news", "town/thinking/scripted_talk.py",
             "and not sighting(m.content)", "",
             ("tests/sim/test_talk_checks.py::test_the_party_run_reads_like_people",
              "tests/sim/test_talk_checks.py::test_a_routine_sighting_is_not_news_however_it_was_rated")),
    Mutation("ignores its own plan", "town/thinking/attend.py",
             'clash = clash_with(routine, f"{event.start:%H:%M}", end, event.place)', "clash = None",
             ("tests/mind/test_attend.py",)),
    Mutation("the spoken reply to an invitation ignores the decision's routine", "town/thinking/scripted_reply.py",
             "d = decide(event, [heard], routine=q.routine,", "d = decide(event, [heard], routine=(),",
             ("tests/mind/test_attend.py::test_the_spoken_reply_to_an_invitation_is_the_day_plans_decision",)),
    Mutation("the spoken reply to an invitation draws its own seed", "town/thinking/scripted_reply.py",
             "summary=q.persona_summary, seed=q.attend_seed)", "summary=q.persona_summary, seed=q.seed)",
             ("tests/mind/test_attend.py::test_the_spoken_reply_and_the_day_plan_draw_alike",)),
    Mutation("a name loses its surname particles", "town/hearsay.py",
             "|la|le|het|ten|ter|zu|y) ){0,2}", "|la|le|het|ten|ter|zu|y) ){0}",
             ("tests/test_hearsay.py::test_surname_particles_are_part_of_a_name",)),
    Mutation("a heard memory is quoted in the listener's words", "town/thinking/recount.py",
             'if content.startswith(f"{speakers[0]} told me that "):', "if False:",
             ("tests/mind/test_interview_answer.py::test_a_talk_summary_in_the_partners_words_is_quoted_once",)),
    Mutation("a clash names its place twice", "town/thinking/attend.py",
             "return description if sector in description else", "return",
             ("tests/mind/test_attend.py::test_a_clash_that_names_its_place_says_it_once",)),
    Mutation("an insight held already is written again", "town/mind/reflect.py",
             "or text in written or text in held:", "or text in written:",
             ("tests/mind/test_reflect_act_perceive.py::test_an_insight_held_already_is_not_written_again",)),
    Mutation("a retelling ignores the teller's pronouns", "town/mind/converse.py",
             "heard_statement(line, speaker.name, speaker.spec.pronoun)", "heard_statement(line, speaker.name)",
             ("tests/sim/test_talk_checks.py::test_a_heard_party_names_the_host_once_then_her_pronoun",)),
    Mutation("pronouns never used", "town/perspective.py",
             'forms = PRONOUNS.get(pronoun or "")', "forms = None",
             ("tests/test_hearsay.py::test_a_retelling_names_the_teller_once_then_uses_their_pronouns",)),
    Mutation("insight drawn from one memory", "town/thinking/scripted_insight.py",
             "MIN_SUPPORT = 2", "MIN_SUPPORT = 1",
             ("tests/mind/test_insights.py",)),
    Mutation("insight listing words", "town/thinking/scripted_insight.py",
             'f"I see {who.split()[0]} at {where} most {_part_of_day([_created(m) for m in ms])}."',
             '", ".join([who, where, _part_of_day([_created(m) for m in ms])])',
             ("tests/mind/test_insights.py",)),
    Mutation("a teller speaking of themselves named twice", "town/hearsay.py",
             "    if own:\n", "    if False:\n", ("tests/test_hearsay.py", "tests/mind/test_converse.py")),
    Mutation("an event under way told as news", "town/thinking/scripted_talk.py",
             "and not sighting(m.content) and not under_way(m, now)", "and not sighting(m.content)",
             ("tests/mind/test_converse.py",)),
    Mutation("who-answers without the persona's file", "town/thinking/scripted_interview.py",
             'if re.search(rf"\\b{re.escape(first)}\\b", x)][:2]', 'if False]',
             ("tests/mind/test_interview_answer.py",)),
    Mutation("an insight keeps 'today'", "town/mind/reflect.py",
             "text = absolute_days(item.text, ctx.now)", "text = item.text",
             ("tests/mind/test_reflect_act_perceive.py",)),
    Mutation("a persona's field assigned from outside its methods", "town/persona.py",
             "        if not self._changing:\n", "        if False:\n",
             ("tests/test_persona.py::test_every_field_is_assigned_only_by_the_personas_methods",)),
    Mutation("a player added by writing the simulation's fields", "town/player.py",
             "    sim.join(p)\n", "    sim._players.add(pid)\n    sim.join(p)\n",
             ("tests/sim/test_owners.py::test_no_module_outside_the_simulation_writes_a_simulation_attribute",)),
    Mutation("the mind runs threads", "town/mind/converse.py",
             "from collections.abc import Mapping\n", "import threading\nfrom collections.abc import Mapping\n",
             ("tests/sim/test_owners.py::test_the_mind_holds_no_threading_or_buffering_code",)),
    Mutation("pooled jobs come back as they finish", "town/simulation/jobs.py",
             "return [future.result() for future in [pool.submit(job) for job in jobs]]",
             "return [future.result() for future in"
             "            __import__('concurrent.futures').futures.as_completed([pool.submit(job) for job in jobs])]",
             ("tests/sim/test_jobs.py::test_results_come_back_in_job_order_whatever_finishes_first",)),
    Mutation("the town library changed by the job, not when applied", "town/mind/practice/events.py",
             "        ctx.out.add(LibraryChange(work))", "        work(ctx.out)  # at once, in the job",
             ("tests/sim/test_determinism.py::test_lines_said_ahead_and_town_library_changes_keep_the_sequential_run",)),
    Mutation("the run state names the simulation's type back (an import cycle)", "town/simulation/state.py",
             "from .timeline import Timeline\n",
             "from .timeline import Timeline\n\nif TYPE_CHECKING:\n    from .core import Simulation\n",
             ("tests/test_imports.py::test_no_cycle_among_modules_counting_type_checking_imports",)),
    # the viewer tried as a new user (docs/testing.md, "The viewer tried as a new user")
    Mutation("a newcomer is not met by name", "town/thinking/scripted_talk.py",
             'lead = met(q.history[-1][1], first_name(q.listener_name)) if q.history else ""', 'lead = ""',
             ("tests/sim/test_player_questions.py",)),
    Mutation("nobody addresses a player", "town/simulation/conversations.py",
             '(b in players and snapshot[b].kind == "walk")', "b in players",
             ("tests/sim/test_player_addressed.py",)),
    Mutation("a player on its way stopped by a persona", "town/simulation/conversations.py",
             '(b in players and snapshot[b].kind == "walk")', "False",
             ("tests/sim/test_player_addressed.py::test_a_player_on_its_way_is_not_stopped",)),
    Mutation("a conversation waits for a player only when the player started it", "town/simulation/conversations.py",
             "return conv.next_speaker in players", "return conv.a in players and len(conv.lines) % 2 == 0",
             ("tests/sim/test_player_addressed.py",)),
    Mutation("a newcomer greeted by a name never heard", "town/mind/converse.py",
             "stranger=not _knows_name(speaker, listener.name, records)))", "stranger=False))",
             ("tests/sim/test_player_addressed.py",)),
    Mutation("a newcomer remembered by a name never heard", "town/mind/converse.py",
             'other_name = other.name if known else "someone new in town"', "other_name = other.name",
             ("tests/sim/test_player_addressed.py",)),
    Mutation("a goodbye answered with news", "town/thinking/scripted_talk.py",
             "    if _GOODBYE.search(last):", "    if False:",
             ("tests/sim/test_player_addressed.py",)),
    Mutation("'is anything happening?' not a question for news", "town/thinking/scripted_reply.py",
             r"\banything (?:new|happening|going on)\b|", "",
             ("tests/sim/test_player_addressed.py",)),
    Mutation("a question answered with the asker's words", "town/thinking/scripted_reply.py",
             "\n                and not _from(m, listener)),", "),",
             ("tests/sim/test_player_questions.py",)),
    Mutation("any secret plays a player", "web/players.py",
             "if hmac.compare_digest(seat.secret.encode(), secret.encode()):", "if True:",
             ("tests/web/test_player_api.py::test_each_tab_moves_only_its_own_player",)),
    Mutation("a player whose tabs closed stays", "web/players.py",
             "        if not seat.sids:", "        if False:",
             ("tests/web/test_player_api.py::test_a_player_leaves_after_its_tab_closes_and_a_rejoin_in_time_takes_it_back",)),
    Mutation("an abandoned tick's failure is logged", "town/runner/runner.py",
             "if not self._want_stop:  # after a stop", "if True:  # after a stop",
             ("tests/web/test_serve_faults.py::test_ctrl_c_during_a_first_tick_that_outlasts_the_stop_says_one_line",)),
    Mutation("every walker drawn, however crowded", "web/static/js/crowding.js",
             "if (by) { hidden.push({ spot, by }); continue; }", "if (false) { hidden.push({ spot, by }); continue; }",
             ("tests/browser/test_crowds.py::test_the_party_at_three_zoom_levels",)),
    Mutation("the wheel zooms around the middle", "web/static/js/view.js",
             "this.zoomBy(2 ** (-dy / WHEEL_OCTAVE), event.clientX - rect.left, event.clientY - rect.top);",
             "this.zoomBy(2 ** (-dy / WHEEL_OCTAVE));",
             ("tests/browser/test_map_view.py::test_wheel_zooms_around_the_cursor_and_a_drag_pans_by_its_movement",)),
    Mutation("a pinch zooms around the fingers' new midpoint", "web/static/js/view.js",
             "this.gesture.x0 - rect.left, this.gesture.y0 - rect.top);", "now.x0 - rect.left, now.y0 - rect.top);",
             ("tests/browser/test_map_view.py::test_a_pinch_zooms_around_the_fingers_and_keys_pan_by_a_quarter",)),
    Mutation("a line said to the player goes unheard", "web/static/js/player.js",
             "(item.speaker !== this.id && item.listener !== this.id)", "item.speaker !== this.id",
             ("tests/browser/test_player.py::test_a_persona_who_speaks_first_to_the_player_is_heard_in_the_talk_bar",)),
    Mutation("a bubble's tail not repainted", "web/static/js/map.js",
             "if (inClip(tailed(box))) this.drawBubble", "if (inClip(box)) this.drawBubble",
             ("tests/browser/test_map_drawing.py::test_repainting_only_what_changed_paints_what_a_whole_repaint_does",)),
    Mutation("a label's outline left behind", "web/static/js/map.js",
             "const EDGE = 2;", "const EDGE = 0;",
             ("tests/browser/test_map_drawing.py::test_repainting_only_what_changed_paints_what_a_whole_repaint_does",)),
    Mutation("the same news said twice", "town/thinking/scripted_interview.py",
             "if not any(len(words & w) >= 0.8 * max(len(words | w), 1) for w in seen):", "if True:",
             ("tests/mind/test_interview_answer.py",)),
    # the clock, reflection's trigger, a question's rules, a stop request
    Mutation("clock off by one tick", "town/clock.py",
             "timedelta(seconds=self._spt * int(tick))", "timedelta(seconds=self._spt * (int(tick) + 1))",
             ("tests/test_clock.py",)),
    Mutation("reflection threshold ignored", "town/mind/reflect.py",
             "if p.importance_acc < ctx.config.reflection.threshold or p.asleep:", "if p.asleep:",
             ("tests/mind/test_reflect_act_perceive.py::test_reflection_waits_until_new_memories_reach_its_threshold",)),
    Mutation("a name begins only with A-Z", "town/hearsay.py",
             "CAPITAL = _capitals()", "CAPITAL = '[A-Z]'",
             ("tests/test_hearsay.py::test_a_name_may_begin_with_any_capital_letter",)),
    Mutation("a question's own checks skipped", "town/thinking/questions/base.py",
             "for rule in self.checks:", "for rule in self.checks[:1]:",
             ("tests/thinking/test_validate.py",)),
    Mutation("a rejection does not name its check", "town/thinking/questions/base.py",
             "exc.check = exc.check or rule.__name__", "pass",
             ("tests/thinking/test_questions.py",)),
    Mutation("a stop leaves the request in flight", "town/thinking/factory.py",
             "on_cancel=model.cancel,", "on_cancel=None,",
             ("tests/thinking/test_parts.py::test_the_stall_guards_cancel_ends_a_request_in_flight",)),
    # what perception stores and what the run file keeps (docs/testing.md, "A run file sized by what happened")
    Mutation("a recent observation written again", "town/mind/perceive.py",
             "        if content not in recent:", "        if True:",
             ("tests/mind/test_reflect_act_perceive.py::test_an_observation_among_the_recent_ones_is_not_written_again",)),
    Mutation("a change of place unseen", "town/mind/perceive.py",
             'return f"{view.action} @ {view.address}"', "return view.action",
             ("tests/mind/test_reflect_act_perceive.py::test_an_observation_among_the_recent_ones_is_not_written_again",)),
    Mutation("everyone in sight attended to", "town/mind/perceive.py",
             "    return seen[:attention] if attention > 0 else seen", "    return seen",
             ("tests/mind/test_reflect_act_perceive.py::test_only_the_nearest_attended_to_become_observations",)),
    Mutation("a resumed run forgets the snapshot parts stored", "town/recording/writer.py",
             "self._parts = PartLog(self._conn if conn_state else None)", "self._parts = PartLog(None)",
             ("tests/sim/test_resume_fork.py::test_a_stopped_run_resumed_is_the_uninterrupted_run",)),
    Mutation("every frame stored whole", "town/recording/frames.py",
             "        if self.frame is not None and self.tick == tick - 1", "        if False and self.tick == tick - 1",
             ("tests/recording/test_frames.py::test_a_still_town_stores_a_keyframe_every_keyframe_ticks_and_empty_"
              "changes_between",)),
    Mutation("changes stored past their keyframe's size", "town/recording/frames.py",
             "            if self.since + cost <= self.key_bytes:", "            if True:",
             ("tests/recording/test_frames.py::test_a_busy_town_stores_a_keyframe_before_its_changes_outweigh_it",)),
    Mutation("an embedding stored again", "town/recording/writer.py",
             "        digest = digest_of(blob)", "        digest = digest_of(blob + bytes(len(self._vector_ids)))",
             ("tests/recording/test_writer.py::test_vectors_are_float32_blobs_never_json_each_stored_once",)),
    Mutation("every snapshot part stored again", "town/recording/snapshots.py",
             "            if self._digests.get(name) != digest:", "            if True:",
             ("tests/recording/test_reader.py::test_a_snapshot_stores_only_the_parts_that_changed",)),
    Mutation("a trace's normalised parts stored, not worked out", "town/recording/traces.py",
             "    if not parts:\n        return 0.0, 0.0", "    if True:\n        return None",
             ("tests/recording/test_traces.py::test_a_real_trace_comes_back_bit_for_bit",)),
    Mutation("an auto timeout that fired is not lengthened", "town/thinking/openai_backend.py",
             "self._lengthen_timeout(time.monotonic() - sent)", "None  # the timeout stays",
             ("tests/thinking/test_speed.py::test_a_timeout_on_a_server_slower_than_measured_lengthens_the_auto_timeout",)),
    Mutation("interview always scripted", "town/cli/interview.py",
             "parts = run_backend(reader, name=args.backend,", 'parts = run_backend(reader, name="scripted",',
             ("tests/thinking/test_interview_backend.py",)),
    # sense checks: an answer that parses but makes no sense (docs/testing.md)
    Mutation("sense: a copied memory passes", "town/thinking/questions/sense.py",
             "copied = next((run for run in _runs(text) if run in shown), None)", "copied = None",
             ("tests/thinking/test_sense.py",)),
    Mutation("sense: an address, time or duration in a description passes", "town/thinking/questions/sense.py",
             "        if held is not None:", "        if False:",
             ("tests/thinking/test_sense.py",)),
    Mutation("sense: a block on another day than its memory passes", "town/thinking/questions/plan_day.py",
             "if days and date.fromisoformat(q.date) not in days:", "if False:",
             ("tests/thinking/test_sense.py",)),
    Mutation("sense: a block away from the place its memory names passes", "town/thinking/questions/plan_day.py",
             "if stated and not any(", "if False and not any(",
             ("tests/thinking/test_sense.py",)),
    Mutation("sense: an activity at a place of another kind passes", "town/thinking/questions/plan_day.py",
             "if needs != kind and (kind in _ONLY_FOR or (needs is not None and kind is not None)):", "if False:",
             ("tests/thinking/test_sense.py",)),
    Mutation("sense: a block repeating the routine passes", "town/thinking/questions/plan_day.py",
             "and said <= content_words(r.description):", "and False:",
             ("tests/thinking/test_sense.py",)),
    Mutation("sense: a procedure named after a place or a placeholder passes",
             "town/thinking/questions/generalise_procedure.py",
             'if not content_words(_PARAMETER.sub(" ", text).replace(":", " ")) - known:', "if False:",
             ("tests/thinking/test_sense.py",)),
    # run-ahead scheduling (docs/testing.md, "Running ahead")
    Mutation("a persona runs ahead past a neighbour", "town/simulation/reach.py",
             "[bx[row], by[row]] > slack[row]", "[bx[row], by[row]] > 0",
             ("tests/sim/test_run_ahead.py::test_running_ahead_changes_nothing_but_numbers",)),
    Mutation("a library change seen early", "town/simulation/runahead.py",
             "        self._span.enter_context(self._procedures.reads_as_of_now())", "        pass",
             ("tests/sim/test_run_ahead.py::test_a_town_library_change_is_seen_from_the_next_game_hour",)),
    Mutation("sense: a cut-off summary passes", "town/thinking/questions/summarise_conversation.py",
             "if not _ENDED.search(a.summary):", "if False:",
             ("tests/thinking/test_sense.py",)),
    Mutation("news of a day gone by told in the present", "town/perspective.py",
             "return _DATE.sub(say, in_past(part))", "return _DATE.sub(say, part)",
             ("tests/test_hearsay.py::test_a_sentence_whose_days_are_past_is_said_in_the_past",
              "tests/mind/test_interview_answer.py::test_news_of_a_day_gone_by_is_told_in_the_past")),
    Mutation("a second verb keeps the first person", "town/perspective.py",
             "and_verbs(said_of, third_singular, strict=True) if", "and_verbs(said_of, third_singular, strict=True) if False and",
             ("tests/test_hearsay.py::test_a_heard_first_person_statement_is_retold_in_the_third_person",)),
    Mutation("a request's schema offers what its prompt left out", "town/thinking/model.py",
             "self._complete(messages, self.schema(asked))", "self._complete(messages, self.schema(question))",
             ("tests/thinking/test_structured.py::test_the_schema_and_checks_judge_by_the_memories_the_prompt_shows",)),
    # a small local model: importance calibration, the speed check, progress on slow runs
    Mutation("importance: a model's ratings never blended", "town/thinking/wrappers/calibrated.py",
             "if weight == 1 or not isinstance(", "if True or not isinstance(",
             ("tests/thinking/test_calibration.py::test_the_calibrated_backend_blends_or_replaces_each_rating",
              "tests/thinking/test_calibration.py::test_a_model_rating_only_1s_and_10s_is_blended_and_stats_says_so")),
    Mutation("importance: bimodal ratings kept", "town/thinking/calibration.py",
             "got.rank >= MIN_RANK and got.extremes <= MAX_EXTREMES", "got.rank >= MIN_RANK",
             ("tests/thinking/test_calibration.py::test_a_model_rating_only_1s_and_10s_is_blended_and_stats_says_so",)),
    Mutation("speed: a writing rate hidden by the overhead is dropped", "town/thinking/speed.py",
             "output_s = writing.seconds / max(1, writing.tokens_out)", "output_s = 0.0",
             ("tests/thinking/test_speed.py::test_a_writing_rate_is_always_measured_and_said_plainly",)),
    Mutation("speed: the timeout leaves out the answer", "town/thinking/speed.py",
             "longest = speed.request_s(tokens_in, max_tokens)", "longest = speed.request_s(tokens_in, 0)",
             ("tests/thinking/test_speed.py::test_the_speed_check_times_writing_and_its_timeout_covers_a_400_token_answer",)),
    Mutation("progress in ticks per second", "town/cli/progress.py",
             "return ticks * seconds_per_tick / max(1e-9, wall_s)", "return ticks / max(1e-9, wall_s)",
             ("tests/thinking/test_progress_lines.py::test_a_run_at_one_tick_a_minute_shows_a_non_zero_pace",)),
    Mutation("progress: nothing said while a tick waits", "town/cli/drive.py",
             "watch = progress.Watch(recorder.live, say)", "watch = None",
             ("tests/thinking/test_progress_lines.py::test_a_slow_first_tick_says_what_the_model_is_asked",)),
)


def run(m: Mutation) -> tuple[bool, list[str]]:
    """Apply ``m``, run its tests, restore; returns (caught, failing or erroring test ids)."""
    path = REPO / m.file
    original = path.read_text()
    if original.count(m.old) != 1:
        raise SystemExit(f"{m.file}: the text to mutate for {m.name!r} occurs "
                         f"{original.count(m.old)} times, not once; update scripts/mutate.py")
    try:
        path.write_text(original.replace(m.old, m.new))
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "-o", "addopts=", *m.tests], cwd=REPO, capture_output=True, text=True)
    finally:
        path.write_text(original)
    failed = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", done.stdout, re.M)
    # pytest's 1 is "tests failed"; 2, 4 and 5 (collection error, unknown test id, none collected)
    # mean the tests never judged the mutation, which is not a catch
    return done.returncode == 1 and bool(failed), failed


def main(argv: list[str]) -> int:
    """Run the selected mutations; print what caught each; 1 if any was missed."""
    chosen = [m for m in MUTATIONS if not argv or any(a in m.name for a in argv)]
    missed = 0
    for m in chosen:
        caught, failed = run(m)
        missed += not caught
        print(f"{'caught' if caught else 'MISSED'}: {m.name}: " + (", ".join(failed) or "-"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
