"""``core.diff.report``: causes one per line, then how many dependent differences follow
(``--all``: each under its first cause), and the one-line summary."""
from __future__ import annotations

from urdf_sdf.core.diff.difference import DEPENDENT, Difference
from urdf_sdf.core.diff.report import diff_report, summary

CAUSES = [Difference("joint", "elbow", "origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)",
                     "origin"),
          Difference("inertial", "hand", "mass 1.0 kg in A, 2.0 kg in B", "mass")]
DEPENDENTS = [Difference("pose", "wrist", "turned 0.6 rad (34.4 deg) at the zero configuration",
                         "pose", DEPENDENT, (0,)),
              Difference("pose", "hand", "turned 0.6 rad (34.4 deg) at the zero configuration",
                         "pose", DEPENDENT, (0, 1))]


def test_summary_counts_causes_and_dependent_differences():
    assert summary([]) == "equivalent"
    assert summary(CAUSES[:1]) == "1 cause"
    assert summary(CAUSES) == "2 causes"
    assert summary(CAUSES + DEPENDENTS[:1]) == "2 causes, 1 dependent difference"
    assert summary(CAUSES + DEPENDENTS) == "2 causes, 2 dependent differences"


def test_the_report_names_the_causes_and_counts_the_rest():
    assert diff_report(CAUSES + DEPENDENTS) == [
        "joint elbow: origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)",
        "inertial hand: mass 1.0 kg in A, 2.0 kg in B",
        "and 2 dependent differences (--all lists them)"]
    assert diff_report([]) == []


def test_all_lists_each_dependent_difference_under_its_first_cause():
    assert diff_report(CAUSES + DEPENDENTS, show_all=True) == [
        "joint elbow: origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)",
        "  pose wrist: turned 0.6 rad (34.4 deg) at the zero configuration",
        "  pose hand: turned 0.6 rad (34.4 deg) at the zero configuration",
        "inertial hand: mass 1.0 kg in A, 2.0 kg in B"]


def test_json_marks_each_difference_cause_or_dependent():
    assert CAUSES[0].to_json() == {"kind": "joint", "name": "elbow", "property": "origin",
                                   "message": CAUSES[0].message, "role": "cause"}
    assert DEPENDENTS[1].to_json()["causes"] == [0, 1]
