"""Training the learned evaluation (:mod:`parlor.ai.value`): ``parlor train``.

* :mod:`parlor.training.selfplay`: positions from games between existing agents, each with
  the game's outcome for the Rlr whose view it is (seeded: the same seed, the same data);
* :mod:`parlor.training.fit`: the network fitted to them with numpy (the ``train`` extra),
  written as the versioned weights file the package ships;
* :mod:`parlor.training.command`: the ``parlor train`` command.
"""
