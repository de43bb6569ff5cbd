"""``python -m gammon.train``: train the neural evaluator (docs/training.md).

python -m gammon.train selfplay --out run.npz --games 1000000 --threads 16
python -m gammon.train improve --resume run.npz --out better.npz --games 20000
python -m gammon.train label --weights run.npz --out labels.npz --games 20000 --plies 2
nice -n 19 python -m gammon.train campaign data/labels --minutes 120
python -m gammon.train fit --resume run.npz --labels labels.npz --out better.npz
python -m gammon.train cube-head --resume run.npz --labels rollouts.npz --out better.npz
python -m gammon.train cube-head --borne --resume run.npz --labels set-up.npz --out better.npz
python -m gammon.train cube-head --crashed --resume run.npz --labels data/labels-crashed --out better.npz
python -m gammon.train check run.npz --pairs 1000
python -m gammon.train choices --labels alternatives.npz run.npz better.npz
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import numba

from gammon.engine.net.neural import CRASHED, CUBE_NETS, ZERO_PLY, ZERO_PLY_CRASHED, Net, NeuralEvaluator
from gammon.engine.net.npz import PATH_LIMIT
from gammon.engine.rollout.parallel import ClusterUnreachableError, check_ray_address, check_workers
from gammon.errors import cut
from gammon.train.batch_fit import AdamSettings
from gammon.train.campaign import (
    CampaignRun,
    CampaignSettings,
    is_shard_file,
    labels_of,
    labels_of_shards,
    load_campaign,
    run_campaign,
    status,
)
from gammon.train.choices import Decisions, net_losses, report
from gammon.train.cube_head import HEAD_PARTS, CubeHeadSettings, fit_cube_head
from gammon.train.labels import KINDS, LabelSet, LabelSettings, Sampling, Work, make_labels
from gammon.train.selfplay import Report, TrainSettings, load_or_start, run, vs_pubeval
from gammon.train.supervised import (
    ALL_NETS,
    NETS,
    Selection,
    SgdSettings,
    adam_fit_labels,
    fit_labels,
    improve,
    widen,
)

ZERO_PLY_NETS = "zero-ply"
"""``fit --nets zero-ply``: the 0-ply net (:attr:`gammon.engine.net.neural.NeuralEvaluator.zero_ply`)."""
ZERO_PLY_CRASHED_NETS = "zero-ply-crashed"
"""``fit --nets zero-ply-crashed``: the 0-ply crashed net
(:attr:`gammon.engine.net.neural.NeuralEvaluator.zero_ply_crashed`)."""


def _add_win_window(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--win-window LO HI``: the cube window a command keeps (label) or fits (cube-head)."""
    parser.add_argument("--win-window", type=float, nargs=2, metavar=("LO", "HI"), help=help_text)


def _add_score_ruled_out(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--score-ruled-out",
        action="store_true",
        help="score the gammons the board rules out too (a side has borne off a checker), as the "
        "fits before step 27 did; they are left out of the loss otherwise",
    )


def _weights(path: Path | None) -> NeuralEvaluator:
    """The weights in ``path`` (None: the shipped ones); a file the nets cannot be read from is a
    ValueError that names it (the loader's shape checks do not know the file)."""
    if path is None:
        return NeuralEvaluator.default()
    try:
        return NeuralEvaluator.load(path)
    except ValueError as e:
        quoted = repr(cut(str(path), PATH_LIMIT))
        if quoted in str(e):
            raise
        raise ValueError(f"{quoted} is not weights of this code's nets: {e}") from None


def _label_files(paths: list[Path]) -> LabelSet:
    """The label files ``paths`` as one set, in their order (a folder: a campaign's shards; shard
    files, those shards alone, a run of them read as one)."""
    sets: list[LabelSet] = []
    for shards, group in itertools.groupby(paths, key=lambda p: not p.is_dir() and is_shard_file(p)):
        if shards:
            sets.append(labels_of_shards(list(group)))
        else:
            sets.extend(labels_of(p) if p.is_dir() else LabelSet.load(p) for p in group)
    return LabelSet.concatenate(sets)


def _campaign(args: argparse.Namespace) -> None:
    if args.status:
        print(status(args.folder))
        return
    given = {
        name: getattr(args, name)
        for name in ("seed", "shard_size", "trials", "plies", "sources")
        if getattr(args, name) is not None
    }
    if "sources" in given:
        given["sources"] = tuple(given["sources"])
    settings = None
    if given:  # a new campaign, or a check that the folder's is the one meant
        base = load_campaign(args.folder) if (args.folder / "campaign.json").exists() else CampaignSettings()
        settings = replace(base, **given)
    done = run_campaign(
        args.folder,
        _weights(args.weights),
        settings=settings,
        run=CampaignRun(
            first=args.first,
            shards=args.shards,
            minutes=args.minutes,
            workers=check_workers(args.workers),
            chunk=args.chunk,
        ),
    )
    print(f"{done} shards finished by this run; {status(args.folder)}")


def _add_selfplay(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("selfplay", help="TD(lambda) self-play from scratch or from a checkpoint")
    sp.add_argument("--out", type=Path, required=True, help="checkpoint / weights file to write")
    sp.add_argument("--resume", type=Path, help="checkpoint to continue (default: --out if it exists)")
    sp.add_argument("--games", type=int, default=100_000)
    sp.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--hidden", type=int, default=128)
    sp.add_argument("--race-hidden", type=int, default=64)
    sp.add_argument("--alpha", type=float, default=0.1)
    sp.add_argument("--alpha-half", type=int, default=300_000)
    sp.add_argument("--alpha-min", type=float, default=0.005)
    sp.add_argument("--lam", type=float, default=0.7)
    sp.add_argument("--chunk", type=int, default=1_000)
    sp.add_argument("--threads", type=int, default=0, help="numba threads (0: all cores)")
    sp.add_argument("--check-every", type=int, default=50_000, help="games between pubeval checks")
    sp.add_argument("--check-pairs", type=int, default=500)
    sp.add_argument("--checkpoint-every", type=int, default=50_000)
    sp.add_argument("--log", type=Path)
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.set_defaults(run=_selfplay)


def _add_improve(sub: argparse._SubParsersAction) -> None:
    im = sub.add_parser("improve", help="fit to positions labelled by 1-ply search (after self-play)")
    im.add_argument("--resume", type=Path, required=True, help="weights to start from")
    im.add_argument("--out", type=Path, required=True)
    im.add_argument("--games", type=int, default=20_000, help="self-play games to take positions from")
    im.add_argument("--every", type=int, default=3, help="take every n-th position of a game")
    im.add_argument("--epochs", type=int, default=4)
    im.add_argument("--alpha", type=float, default=0.01)
    im.add_argument("--seed", type=int, default=7)
    im.add_argument("--threads", type=int, default=0)
    im.add_argument("--check-pairs", type=int, default=1000)
    im.add_argument("--log", type=Path)
    im.set_defaults(run=_improve)


def _add_label(sub: argparse._SubParsersAction) -> None:
    lb = sub.add_parser("label", help="label self-play positions with 2-ply search or rollouts")
    lb.add_argument("--weights", type=Path, help="the net that plays the games and labels (default: shipped)")
    lb.add_argument("--out", type=Path, required=True, help="label file to write (or resume)")
    lb.add_argument("--games", type=int, default=10_000, help="self-play games to take positions from")
    lb.add_argument("--every", type=int, default=3, help="take every n-th position of a game")
    lb.add_argument("--seed", type=int, default=21, help="the self-play games' dice")
    lb.add_argument("--contact-only", action="store_true", help="leave the races out")
    lb.add_argument("--race-only", action="store_true", help="keep only the races (for the race net)")
    lb.add_argument(
        "--crashed-only", action="store_true", help="keep only crashed positions (few checkers left in play)"
    )
    lb.add_argument(
        "--from-crashed",
        action="store_true",
        help="with --alternatives: the plays of crashed positions only (with --race-only, the races "
        "they turn into)",
    )
    lb.add_argument(
        "--explore",
        type=float,
        default=0.0,
        help="probability of a random legal play in the self-play games (0: greedy)",
    )
    lb.add_argument(
        "--min-anchors",
        type=int,
        default=0,
        metavar="K",
        help="keep only positions where a side holds K or more points of the other's home board",
    )
    _add_win_window(
        lb,
        "keep only positions whose player on roll wins with a 0-ply chance in [LO, HI] "
        "(0.55 0.97: the cube window)",
    )
    lb.add_argument(
        "--alternatives",
        type=int,
        default=0,
        metavar="K",
        help="label the boards after the K best 0-ply plays of a roll of each position",
    )
    lb.add_argument(
        "--set-up",
        type=int,
        default=0,
        metavar="K",
        help="set the positions up: a side takes 1-K checkers off its home board while it "
        "still has one out (the positions play all but never reaches)",
    )
    lb.add_argument(
        "--set-up-trailing",
        type=int,
        default=0,
        metavar="PIPS",
        help="with --set-up: the side PIPS or more behind in the pip count takes them off "
        "(boards closer than that are left out)",
    )
    lb.add_argument("--kind", choices=KINDS, default="search")
    lb.add_argument("--plies", type=int, default=2, help="search depth of a search label (1 or 2)")
    lb.add_argument("--trials", type=int, default=144, help="rollout trials per position")
    lb.add_argument("--rollout-plies", type=int, default=0, help="checker play depth in rollouts")
    lb.add_argument("--truncate", type=int, help="stop rollout trials after this many half-moves")
    lb.add_argument(
        "--common-dice",
        action="store_true",
        help="roll a roll's alternatives out on the same dice (with --alternatives)",
    )
    lb.add_argument("--positions", type=int, help="label only the first this many positions")
    lb.add_argument("--chunk", type=int, default=256, help="positions per piece of work")
    lb.add_argument("--workers", type=int, help="local processes (default: every core)")
    lb.add_argument("--ray", metavar="ADDRESS", help="run on Ray ('local' or a cluster address)")
    lb.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    lb.set_defaults(run=_label)


def _add_campaign(sub: argparse._SubParsersAction) -> None:
    cp = sub.add_parser(
        "campaign",
        help="roll out shards of positions into a campaign folder, resumably "
        "(run it under nice -n 19; Ctrl-C or SIGTERM stops it cleanly)",
    )
    cp.add_argument("folder", type=Path, help="the campaign's folder (data/labels in the repository)")
    cp.add_argument("--weights", type=Path, help="the net that plays and rolls out (default: shipped)")
    cp.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    cp.add_argument("--shards", type=int, help="stop after finishing this many shards")
    cp.add_argument(
        "--first",
        type=int,
        default=0,
        help="the first shard to take (runs on other machines take other ranges)",
    )
    cp.add_argument("--workers", type=int, help="local processes (default: every core)")
    cp.add_argument("--chunk", type=int, default=5, help="positions per piece of work")
    cp.add_argument(
        "--status",
        action="store_true",
        help="say how far the campaign is and rebuild its manifest; label nothing",
    )
    new = cp.add_argument_group("a new campaign's settings (a campaign keeps those it started with)")
    new.add_argument("--seed", type=int)
    new.add_argument("--shard-size", type=int)
    new.add_argument("--trials", type=int)
    new.add_argument("--plies", type=int)
    new.add_argument("--sources", nargs="+", help="the sources of positions, in turn")
    cp.set_defaults(run=_campaign)


def _add_fit_nets(ft: argparse.ArgumentParser) -> None:
    """The fit's options of which nets it fits and where a cube net starts."""
    ft.add_argument(
        "--nets",
        choices=["both", *ALL_NETS, ZERO_PLY_NETS, ZERO_PLY_CRASHED_NETS],
        default="both",
        help="which nets to fit (Adam only; both: contact and race; the others keep their weights; "
        "crashed: the crashed net, made from the contact net when the weights have none; cube and "
        "borne: the cube nets, the chances cube decisions value in the contact positions neither "
        "crashed nor borne-off, and where a side has borne off a checker while another is still out, "
        "each fitted to its positions of the labels alone, made from the contact net when the weights "
        "have none; zero-ply: the 0-ply net, the contact net of Engine(plies=0) alone, fitted as the "
        "contact net is, made from the contact net when the weights have none; zero-ply-crashed: the "
        "0-ply crashed net, the crashed net of Engine(plies=0) alone, fitted as the crashed net is, "
        "made from the crashed net when the weights have none)",
    )
    ft.add_argument(
        "--from-contact",
        action="store_true",
        help="with --nets cube or borne: make that net from the contact net again, even where the "
        "weights have one (a fit of its own, as the shipped one was made, not a further fit)",
    )


def _add_fit(sub: argparse._SubParsersAction) -> None:
    ft = sub.add_parser("fit", help="fit the nets to label files (supervised)")
    ft.add_argument("--resume", type=Path, help="weights to start from (default: shipped)")
    ft.add_argument(
        "--labels",
        type=Path,
        nargs="+",
        required=True,
        help="label files, campaign folders (every finished shard) or a campaign's shard files",
    )
    ft.add_argument("--out", type=Path, required=True)
    ft.add_argument("--hidden", type=int, help="widen the contact net to this many hidden units first")
    ft.add_argument("--race-hidden", type=int, help="widen the race net to this many hidden units first")
    _add_fit_nets(ft)
    ft.add_argument(
        "--rollout-labels",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="rollout label sets to fit beside --labels (Adam only; the last epoch is kept)",
    )
    ft.add_argument(
        "--rollout-repeat", type=int, default=1, metavar="N", help="fit each rollout label N times over"
    )
    ft.add_argument(
        "--rank-weight",
        type=float,
        default=0.0,
        metavar="MU",
        help="Adam only: add MU times the mean square of each board's cubeless equity error less "
        "its decision's mean (the boards of a roll's plays: label --alternatives files), in batches "
        "of whole decisions; the last epoch is kept",
    )
    ft.add_argument(
        "--drop-anchors",
        type=int,
        default=0,
        metavar="K",
        help="leave out of --labels the positions where a side holds K or more anchors",
    )
    ft.add_argument(
        "--drop-window",
        type=float,
        nargs=2,
        metavar=("LO", "HI"),
        help="leave out of --labels the contact positions whose player on roll wins with the "
        "starting net's 0-ply chance in [LO, HI] (0.55 0.97: the cube window)",
    )
    ft.add_argument(
        "--window-labels",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="search label sets fitted before --labels whose positions --drop-window keeps "
        "(label --alternatives: the plays a 0-ply choice compares)",
    )
    ft.add_argument(
        "--keep-level",
        action="store_true",
        help="Adam only: move each decision's labels, output by output, so that their mean is the "
        "starting nets' own 0-ply mean (the plays' differences stay the labels')",
    )
    ft.add_argument(
        "--anchor-games",
        type=int,
        default=0,
        metavar="N",
        help="Adam only: fit beside --labels every second position of N self-play games of the "
        "starting nets (5%% random plays) that the fitted nets evaluate, labelled with their own outputs",
    )
    ft.add_argument("--anchor-seed", type=int, default=1, help="the anchor games' dice")
    ft.add_argument(
        "--method",
        choices=["adam", "sgd"],
        default="adam",
        help="adam: mini-batch Adam on cross-entropy; sgd: per-position SGD on squared error",
    )
    ft.add_argument("--epochs", type=int, default=20)
    ft.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (cosine to a hundredth)")
    ft.add_argument("--batch", type=int, default=256, help="Adam's mini-batch")
    ft.add_argument("--alpha", type=float, default=0.005, help="SGD's learning rate")
    ft.add_argument(
        "--holdout",
        type=float,
        default=0.05,
        help="share of positions (the last games') kept out to judge the fit",
    )
    _add_score_ruled_out(ft)
    ft.add_argument("--seed", type=int, default=7)
    ft.add_argument("--threads", type=int, default=0)
    ft.add_argument("--check-pairs", type=int, default=1000)
    ft.add_argument("--log", type=Path)
    ft.set_defaults(run=_fit)


def _add_cube_head(sub: argparse._SubParsersAction) -> None:
    ch = sub.add_parser(
        "cube-head",
        help="fit a cube head (the contact net's, its borne-off head or the crashed net's) to rollout "
        "labels: the chances cube decisions value",
    )
    ch.add_argument("--resume", type=Path, help="weights to start from (default: shipped)")
    ch.add_argument("--labels", type=Path, nargs="+", required=True, help="rollout label files")
    ch.add_argument("--out", type=Path, required=True)
    ch.add_argument(
        "--lam",
        type=float,
        default=1e-4,
        help="L2 pull towards the net's own outputs (with --from-head, its head's)",
    )
    ch.add_argument("--steps", type=int, default=300, help="full-batch Adam steps")
    ch.add_argument("--holdout", type=float, default=0.2, help="share held out to report the fit")
    which = ch.add_mutually_exclusive_group()
    which.add_argument(
        "--borne",
        action="store_true",
        help="fit the borne-off head instead: the cube head of the positions where a side has "
        "borne off a checker while another is still out (label --set-up)",
    )
    which.add_argument(
        "--crashed",
        action="store_true",
        help="fit the crashed net's cube head instead: the chances of the positions where a side "
        "has crashed (a crashed label campaign's folder)",
    )
    ch.add_argument(
        "--from-head",
        action="store_true",
        help="start from the head the net has, and hold the fit near it (more rollouts "
        "added to those it was fitted on)",
    )
    ch.add_argument(
        "--from-head-of",
        type=Path,
        metavar="WEIGHTS",
        help="as --from-head, from the head these weights have: the net's before a fit of its "
        "contact net, which drops the contact net's heads (its hidden units moved)",
    )
    _add_score_ruled_out(ch)
    _add_win_window(
        ch,
        "fit only the positions whose player on roll wins with the net's 0-ply chance in "
        "LO-HI (e.g. 0.55 0.97: a campaign's folder holds every source's positions)",
    )
    ch.set_defaults(run=_cube_head)


def _add_check(sub: argparse._SubParsersAction) -> None:
    ck = sub.add_parser("check", help="strength of a weights file against pubeval")
    ck.add_argument("weights", type=Path)
    ck.add_argument("--pairs", type=int, default=1_000)
    ck.add_argument("--seed", type=int, default=12345)
    ck.set_defaults(run=_check)


def _add_choices(sub: argparse._SubParsersAction) -> None:
    ch = sub.add_parser("choices", help="judge 0-ply choices among a label set's alternatives by its labels")
    ch.add_argument(
        "--labels",
        type=Path,
        required=True,
        help="a label file of label --alternatives, or a campaign folder of plays "
        "(source crashed-plays or contact-plays)",
    )
    ch.add_argument(
        "--holdout",
        type=float,
        default=0.05,
        help="judge the decisions in this last share of the file (fit's held-out part)",
    )
    ch.add_argument("weights", type=Path, nargs="+", help="the nets to judge, the first the baseline")
    ch.set_defaults(run=_choices)


def _selfplay(args: argparse.Namespace) -> None:
    settings = TrainSettings(
        seed=args.seed,
        alpha=args.alpha,
        alpha_half=args.alpha_half,
        alpha_min=args.alpha_min,
        lam=args.lam,
        chunk=args.chunk,
    )
    resume = args.resume if args.resume is not None else args.out
    ev = load_or_start(resume, args.hidden, args.race_hidden, args.seed)
    run(
        ev,
        settings,
        args.games,
        args.out,
        minutes=args.minutes,
        threads=args.threads,
        report=Report(
            check_pairs=args.check_pairs,
            check_every=args.check_every,
            checkpoint_every=args.checkpoint_every,
            log=args.log,
        ),
        progress=not args.quiet,
    )


def _improve(args: argparse.Namespace) -> None:
    improve(
        _weights(args.resume),
        args.out,
        SgdSettings(epochs=args.epochs, alpha=args.alpha, seed=args.seed),
        games=args.games,
        every=args.every,
        threads=args.threads,
        report=Report(check_pairs=args.check_pairs, log=args.log),
    )


def _label(args: argparse.Namespace) -> None:
    labelling = LabelSettings(
        kind=args.kind,
        plies=args.plies,
        trials=args.trials,
        rollout_plies=args.rollout_plies,
        truncate=args.truncate,
        seed=args.seed,
        common_dice=args.common_dice,
    )
    make_labels(
        _weights(args.weights),
        args.out,
        labelling,
        Sampling(
            games=args.games,
            every=args.every,
            seed=args.seed,
            explore=args.explore,
            contact_only=args.contact_only,
            race_only=args.race_only,
            crashed_only=args.crashed_only,
            from_crashed=args.from_crashed,
            min_anchors=args.min_anchors,
            win_window=None if args.win_window is None else tuple(args.win_window),
            alternatives=args.alternatives,
            set_up=args.set_up,
            set_up_trailing=args.set_up_trailing,
        ),
        positions=args.positions,
        work=Work(
            chunk=args.chunk,
            workers=check_workers(args.workers),
            ray_address=args.ray,
            minutes=args.minutes,
        ),
    )


def _fit(args: argparse.Namespace) -> None:
    if args.method != "adam" and (
        args.rollout_labels
        or args.drop_anchors
        or args.drop_window
        or args.window_labels
        or args.nets != "both"
        or args.rank_weight
        or args.keep_level
        or args.anchor_games
    ):
        raise ValueError(
            "--rollout-labels, --drop-anchors, --drop-window, --window-labels, --nets, --rank-weight, "
            "--keep-level and --anchor-games need --method adam"
        )
    if args.from_contact and args.nets not in CUBE_NETS:
        raise ValueError(
            "--from-contact makes a cube net from the contact net: give --nets cube or borne, "
            f"got {args.nets!r}"
        )
    labels = _label_files(args.labels)
    rollouts = _label_files(args.rollout_labels) if args.rollout_labels else None
    kept = _label_files(args.window_labels) if args.window_labels else None
    weights = _weights(args.resume)
    zero_ply_fit = _ZERO_PLY_FITS.get(args.nets)
    # a 0-ply net is fitted as the net it stands for, in an evaluator of its own: the others stay as they are
    ev = weights if zero_ply_fit is None else zero_ply_fit.to_fit(weights)
    if args.from_contact:
        ev = ev.replaced(**{args.nets: None})  # a fit makes a missing cube net from the contact net
    if args.hidden is not None:  # a new hidden layer: the cube heads do not fit it
        ev = ev.replaced(contact=widen(ev.contact, args.hidden, args.seed), cube_head=None, borne_head=None)
    if args.race_hidden is not None:
        ev.race = widen(ev.race, args.race_hidden, args.seed)
    if args.method == "adam":
        adam = AdamSettings(
            epochs=args.epochs,
            lr=args.lr,
            batch=args.batch,
            score_ruled_out=args.score_ruled_out,
            rank_weight=args.rank_weight,
        )
        adam_fit_labels(
            ev,
            labels,
            args.out,
            adam,
            selection=Selection(
                holdout=args.holdout,
                drop_anchors=args.drop_anchors,
                drop_window=None if args.drop_window is None else tuple(args.drop_window),
                window_kept=kept,
                rollouts=rollouts,
                repeat=args.rollout_repeat,
                keep_level=args.keep_level,
                anchor_games=args.anchor_games,
                anchor_seed=args.anchor_seed,
            ),
            seed=args.seed,
            nets=_fitted_nets(args.nets),
            report=Report(check_pairs=args.check_pairs, log=args.log),
        )
        if zero_ply_fit is not None:
            fitted = getattr(NeuralEvaluator.load(args.out), zero_ply_fit.fitted_as)
            weights.replaced(**{zero_ply_fit.part: fitted}).save(args.out)
            print(f"wrote {args.out}: the fitted net as the {zero_ply_fit.name} of "
                  f"{args.resume or 'the shipped net'}")
    else:
        fit_labels(
            ev,
            labels,
            args.out,
            SgdSettings(epochs=args.epochs, alpha=args.alpha, seed=args.seed),
            holdout=args.holdout,
            threads=args.threads,
            report=Report(check_pairs=args.check_pairs, log=args.log),
        )


def _fitted_nets(nets: str) -> tuple[str, ...]:
    """The nets of the evaluator a fit trains for ``--nets``: the 0-ply nets are fitted as the
    contact and the crashed net of an evaluator of their own (:func:`_zero_ply_to_fit`)."""
    if nets == "both":
        return NETS
    return (_ZERO_PLY_FITS[nets].fitted_as,) if nets in _ZERO_PLY_FITS else (nets,)


def _zero_ply_crashed_to_fit(ev: NeuralEvaluator) -> NeuralEvaluator:
    """An evaluator whose crashed net is a copy of ``ev``'s 0-ply crashed net (or of its crashed
    net, or of its contact net where it has neither), its other nets ``ev``'s (their self-play
    gives a fit's anchor positions), for a fit of the crashed net that leaves ``ev``'s own as they
    are."""
    start = ev.zero_ply_crashed or ev.crashed or ev.contact
    return ev.replaced(crashed=Net(*(a.copy() for a in start.arrays())))


def _zero_ply_to_fit(ev: NeuralEvaluator) -> NeuralEvaluator:
    """An evaluator whose contact net is a copy of ``ev``'s 0-ply net (or of its contact net,
    where it has none), for a fit of the contact net that leaves ``ev``'s own nets as they are."""
    start = ev.zero_ply if ev.zero_ply is not None else ev.contact
    return ev.replaced(zero_ply=Net(*(a.copy() for a in start.arrays()))).at_zero_ply()


class _ZeroPlyFit(NamedTuple):
    """How ``fit --nets`` fits a 0-ply net: as the net ``fitted_as`` of the evaluator ``to_fit``
    makes, then saved as the part ``part`` of the weights it started from."""

    fitted_as: str
    part: str
    name: str
    to_fit: Callable[[NeuralEvaluator], NeuralEvaluator]


_ZERO_PLY_FITS = {
    ZERO_PLY_NETS: _ZeroPlyFit("contact", ZERO_PLY, "0-ply net", _zero_ply_to_fit),
    ZERO_PLY_CRASHED_NETS: _ZeroPlyFit(
        CRASHED, ZERO_PLY_CRASHED, "0-ply crashed net", _zero_ply_crashed_to_fit
    ),
}


def _cube_head(args: argparse.Namespace) -> None:
    head_settings = CubeHeadSettings(
        lam=args.lam,
        steps=args.steps,
        holdout=args.holdout,
        from_head=args.from_head or args.from_head_of is not None,
        win_window=None if args.win_window is None else tuple(args.win_window),
        score_ruled_out=args.score_ruled_out,
    )
    kind = "borne" if args.borne else "crashed" if args.crashed else "cube"
    ev = _weights(args.resume)
    if args.from_head_of is not None:
        part = HEAD_PARTS[kind]
        ev = ev.replaced(**{part: getattr(_weights(args.from_head_of), part)})
    fitted, fit_report = fit_cube_head(ev, _label_files(args.labels), head_settings, kind)
    fitted.save(args.out)
    print("\n".join(fit_report.lines()))
    print(f"wrote {args.out}")


def _check(args: argparse.Namespace) -> None:
    print(vs_pubeval(_weights(args.weights), args.pairs, args.seed))


def _choices(args: argparse.Namespace) -> None:
    decisions = Decisions.load(args.labels, args.holdout)
    if not len(decisions):
        raise ValueError(f"{str(args.labels)!r} has no decision of two plays or more to judge")
    losses = [net_losses(_weights(w), decisions) for w in args.weights]
    print("\n".join(report([str(w) for w in args.weights], losses, decisions.races())))


SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    _add_selfplay,
    _add_improve,
    _add_label,
    _add_campaign,
    _add_fit,
    _add_cube_head,
    _add_check,
    _add_choices,
]


def _refused(args: argparse.Namespace) -> str | None:
    """Why the command cannot run as given, found before its work (a fit or a label run can take
    hours: a file it cannot write is refused before, not after), or None."""
    out = getattr(args, "out", None)
    if out is not None and (out.is_dir() or not out.parent.is_dir()):
        why = "is a folder" if out.is_dir() else "cannot be written: its folder does not exist"
        return f"{cut(str(out), PATH_LIMIT)!r} {why}"
    threads, most = getattr(args, "threads", 0), numba.config.NUMBA_NUM_THREADS
    if threads and not 1 <= threads <= most:
        return f"--threads {threads}: this machine runs 1 to {most} numba threads (0: all of them)"
    chunk = getattr(args, "chunk", 1)
    if chunk < 1:  # 0 failed in range() once the positions were played; below 0 labelled none, for ever
        return f"--chunk {chunk}: a piece of work is at least 1 (position, or game for selfplay)"
    ray = getattr(args, "ray", None)
    if ray is not None:  # Ray retries a dead address for minutes, once the positions are played
        try:
            check_ray_address(ray)
        except ClusterUnreachableError as e:
            return str(e)
    return None


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser (docs/training.md's commands are checked against it)."""
    parser = argparse.ArgumentParser(prog="python -m gammon.train", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    refused = _refused(args)
    if refused is not None:
        parser.exit(2, f"python -m gammon.train {args.command}: {refused}\n")
    # bad settings or files end with their message and exit status 2, not a traceback
    try:
        args.run(args)
    except (ValueError, OSError, ImportError) as e:  # ImportError: --ray without Ray installed
        parser.exit(2, f"python -m gammon.train {args.command}: {e}\n")
    except KeyboardInterrupt:  # Ctrl-C: what a command keeps it has saved; a traceback said nothing more
        parser.exit(130, f"python -m gammon.train {args.command}: stopped\n")


if __name__ == "__main__":
    main()
