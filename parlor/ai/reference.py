"""Today's expert kept fixed: the reference agent later experts are measured against.

Issue 17 asks for an expert that beats "today's expert (the 0.3 s search at commit 20ac8f4)"
by 70%. Every setting of that search is spelled out here, its evaluation and cheap-policy
weights too, so that tuning the defaults of :class:`~parlor.ai.search.SearchAgent`,
:data:`parlor.ai.evaluate.DEFAULT` or :data:`parlor.ai.policy.PDEFAULT` leaves it be.
Whatever behaviour the search gains later is switched on by a parameter whose old value
is written here.

Its time budget is 0.3 s cut by the search speed-up of the compiled build
(``REFERENCE_SPEEDUP``, ISMCTS iterations per CPU-s compiled now against interpreted then,
bench/engine.py), so that it runs about the iterations the old build managed in 0.3 s; for
measurements that must not depend on the machine's load, give it an iteration budget
(``expert_ref@iters=800``, :func:`parlor.ai.levels.make_agent`).
"""

from __future__ import annotations

from parlor.ai.evaluate import Weights
from parlor.ai.policy import PolicyWeights
from parlor.ai.search import SearchAgent

REFERENCE_SPEEDUP = 1.95

REFERENCE_WEIGHTS = Weights(
    life_k=12.0, life_c=4.0, cre_pwr=0.65, cre_tgh=0.63, cre_ability=0.5, cre_enh=0.18,
    cre_trump_enh=0.4, cre_trump_base=0.3, lnd=3.1, lnd_tail=1.0, lnd_taxed_other=0.49,
    lnd_trump=0.2, hand_lnd=0.6, hand_cre=0.45, hand_cre_castable=0.5, hand_enh=0.55,
    hand_enh_rank=0.1, library=0.04, domain_rank=0.2, domain_trump=0.3, pool=0.6,
    group_bonus=0.45, press_pwr=0.25, press_through=2.55, press_through_lin=0.2,
    press_blocker=1.5, scale=10.0)

REFERENCE_POLICY = PolicyWeights(
    lnd=8.0, cre=3.0, cre_value=0.5, enh_cost=0.25, expel_cre=2.5, expel_enhs=1.0,
    expel_lnd=2.0, expel_enh=0.6, expel_stack=0.8, stack=1.2, stack_base=0.3, domain=0.6,
    domain_per_attacker=0.3, enh_cre=0.5, enh_cre_gain=1.2, enh_lnd_trump=0.4, combat_enh=1.0,
    attack_base=0.2, attack_safe=1.0, attack_kills=0.4, attack_outnumber=0.8,
    attack_lethal=2.0, attack_free=2.0, attack_dies=0.4, done=0.3, block_tax=0.6,
    block_safe=1.0, block_dies=0.5, block_kills=0.7, block_chump=4.0, block_double=0.5,
    volley_kill=1.0, volley=0.3, ally=0.5, carry=0.2, sally=0.8, harry=0.8, ability_lost=0.8,
    redraw=-3.0, counter_lethal=0.0, strike_back=0.0)


def reference_expert(seed: int | None = 0) -> SearchAgent:
    """The expert's search at 20ac8f4, every setting written out."""
    return SearchAgent(seed, budget=0.3 / REFERENCE_SPEEDUP, horizon=2, epsilon=0.1, c=0.7,
                       prior_visits=2.0, root_samples=1, widen=2.0, root="halving",
                       root_width=8, decisive=0.25, look=1, search_keep=False,
                       settle_root=False, sampler="uniform", name="expert_ref",
                       weights=REFERENCE_WEIGHTS, policy=REFERENCE_POLICY)


__all__ = ["REFERENCE_POLICY", "REFERENCE_SPEEDUP", "REFERENCE_WEIGHTS", "reference_expert"]
