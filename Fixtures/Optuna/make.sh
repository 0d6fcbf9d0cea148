#!/bin/sh
# Makes study.db with Optuna's own RDB storage (pip install optuna; made with 5.0.0, SQLAlchemy
# and Alembic underneath): an experiment tracker's store, one study of five trials with their
# parameters, values and attributes. Its schema is SQLAlchemy's: foreign keys, UNIQUE constraints,
# CHECKs for enums, Alembic's version table. The tests read the committed file; run this only to
# remake it.
set -e
cd "$(dirname "$0")"
rm -f study.db
python3 - <<PY
import optuna
optuna.logging.set_verbosity(optuna.logging.WARNING)
study = optuna.create_study(study_name="fixture", storage="sqlite:///$PWD/study.db",
                            sampler=optuna.samplers.RandomSampler(seed=7))
study.set_user_attr("owner", "ada")
def objective(trial):
    x = trial.suggest_float("x", -10, 10)
    kind = trial.suggest_categorical("kind", ["a", "b"])
    trial.set_user_attr("note", "tried %s" % kind)
    return (x - 2) ** 2
study.optimize(objective, n_trials=5)
PY
