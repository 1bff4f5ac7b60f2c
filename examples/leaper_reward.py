"""leaper's reward for verl: a custom reward function that asks a running
`leaper serve` to score each response against its task.

Standard library only. Configure verl with

    custom_reward_function.path=examples/leaper_reward.py
    custom_reward_function.name=compute_score

(or name=compute_score_batch with reward_model.reward_manager=batch), and
start the server with the tasks the data came from:

    leaper export --format verl --tasks tasks.jsonl --out train.parquet
    leaper serve --store ./leaper-data --tasks tasks.jsonl

Environment:
    LEAPER_URL      base URL of leaper serve (default http://127.0.0.1:8080)
    LEAPER_TOKEN    bearer token, when the server was started with --token-file
    LEAPER_TIMEOUT  seconds per request (default 60)

The task of a sample is extra_info["task_id"] (leaper's verl and search-r1
exports write it); failing that, ground_truth when it is a task id, or a
task as JSON. The score is leaper's soft F of the answer (the inside of the
last <answer>...</answer>, or the whole response) against the task's
targets, in [0, 1]; for a task with an aggregate (a count, a member...) it
is 0 unless the answer also gives the value, after its table: the same
number POST /reward answers as "reward".
"""

import json
import os
import urllib.error
import urllib.request

__all__ = ["compute_score", "compute_score_batch", "get_rewards"]


def _base_url():
    return os.environ.get("LEAPER_URL", "http://127.0.0.1:8080").rstrip("/")


def _label(ground_truth, extra_info):
    if isinstance(extra_info, dict) and extra_info.get("task_id"):
        return str(extra_info["task_id"])
    if isinstance(ground_truth, dict):
        if ground_truth.get("task_id"):
            return str(ground_truth["task_id"])
        return json.dumps(ground_truth)
    if isinstance(ground_truth, str) and ground_truth:
        return ground_truth
    raise ValueError("leaper_reward: no task id in extra_info['task_id'] or ground_truth")


def get_rewards(responses, labels, prompts=None):
    """POST /get_reward (OpenRLHF's shape) and return the rewards, one per
    response. labels are task ids or tasks as JSON."""
    body = {"query": list(responses), "labels": list(labels)}
    if prompts is not None:
        body["prompts"] = list(prompts)
    req = urllib.request.Request(
        _base_url() + "/get_reward",
        data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    token = os.environ.get("LEAPER_TOKEN", "")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    timeout = float(os.environ.get("LEAPER_TIMEOUT", "60"))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            out = json.loads(resp.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        msg = e.read().decode("utf-8", "replace")
        raise RuntimeError("leaper_reward: HTTP %d from %s: %s" % (e.code, req.full_url, msg)) from None
    rewards = out.get("rewards")
    if not isinstance(rewards, list) or len(rewards) != len(body["query"]):
        raise RuntimeError("leaper_reward: bad answer from %s: %r" % (req.full_url, out))
    return [float(r) for r in rewards]


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl's custom reward function: one sample's score in [0, 1]."""
    return get_rewards([solution_str], [_label(ground_truth, extra_info)])[0]


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos=None, **kwargs):
    """verl's batch reward manager form: one request for the whole batch."""
    if extra_infos is None:
        extra_infos = [None] * len(solution_strs)
    labels = [_label(g, e) for g, e in zip(ground_truths, extra_infos)]
    return get_rewards(solution_strs, labels)
