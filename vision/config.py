"""Every threshold of reading a photo, in one frozen value: the app and `taiscore detect`
read at the defaults, `taiscore eval` passes a copy with a lower working confidence
(`dataclasses.replace`), and no stage keeps a threshold of its own."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Thresholds:
    """Chosen on the real training photos; the reasons stand beside each value."""

    # working confidence: the detector's candidates below it are left out; a tile it finds
    # keeps its box however unsure its face (a face the readers never saw still gets one),
    # its confidence the detector's times the readers', low for the player to check
    conf: float = 0.25
    iou: float = 0.7  # two boxes of one class overlapping this much are one tile (NMS)
    same_tile_iou: float = 0.7  # two boxes of different classes overlapping this much are one physical tile
    # A box lying this share of its area or more inside a surer one is part of that tile (a
    # column of a 4s or 9s boxed alone): askew rows' upright boxes overlap a third at most.
    part_of_tile: float = 0.5
    vote_iou: float = 0.8  # candidates overlapping a kept box this much vote on where its edges lie
    vote_floor: float = 0.25  # ... if they score at least this; both chosen on 200 training photos
    # Where the detector does not know the set (of its tiles scoring `seen` or more, it is
    # sure, `finder_known`, of fewer than `finder_hand` and of less than a share
    # `finder_share`, or it finds fewer than `few_tiles`), the finder's tiles
    # (`finder.py`) scoring `finder_conf` or more take the place of the detector's, which
    # keeps those overlapping none of the finder's at IoU `finder_apart`. Chosen on 169
    # Hong Kong natural training photos and renders of the trained styles
    # (models/README.md): renders' tiles found 77.1 % where half of them sure was
    # knowing the set, 98.8 % at three quarters; a whole hand sure keeps the finder from
    # boxing the discards round a Hong Kong hand, which the labels leave out.
    finder_conf: float = 0.5
    # ... and the finder's fainter tiles, down to this, that continue a row of those (the
    # row rules below): a row's end in shadow, a face-down tile, a pale face on a white
    # table. Chosen on every fourth Hong Kong training photo (338) and 140 renders of the
    # trained styles (models/README.md, "The finder", session 36): at 0.35 the renders'
    # tiles found 99.0 -> 99.2 % for 2 boxes more in all 140, at 0.3 as many for 3, at
    # 0.45 99.0 %; the Hong Kong photos 87.9 -> 87.8 % for 2 more in all 338.
    finder_floor: float = 0.35
    finder_apart: float = 0.3
    finder_known: float = 0.5
    finder_share: float = 0.75
    finder_hand: int = 16  # ... or it is sure of a whole hand's tiles, the unsure rest discards and walls
    # Where it knows the set but is sure of fewer than a hand, the finder's tiles that
    # continue a row of its sure ones join them (`finder.row_mates`); where it is sure of
    # every tile it sees, only those the finder scores `finder_row` or more (sessions
    # 26-35 took none there): on two validation photos the finder boxes the felt between
    # well-spaced Hong Kong tiles at 0.55-0.58. Chosen on the photos `finder_floor` was
    # (models/README.md, "The finder", session 36): at 0.6 the Hong Kong photos' tiles
    # found 87.8 -> 88.1 % for no box more, at 0.5 88.2 % for 2, at 0.7 88.0 %; the
    # renders moved by none. Rows:
    # of a tile's size within `row_size` either way, level with it by `row_level` of its
    # height, less than `row_gap` of its width beside it. Chosen on renders of held-out
    # styles and the Hong Kong validation photos (models/README.md): the finder's slivers
    # at the frame and in the gaps between tiles are narrower.
    finder_row: float = 0.6
    row_size: float = 0.75
    row_level: float = 0.6
    row_gap: float = 0.5
    # ... and wherever it knows the set, the finder's tiles it missed that the finder scores
    # this or more join them (`finder.sure_tiles`): the Hong Kong discards and walls, which
    # the labels leave out, score less. Chosen on the Hong Kong training photos and renders
    # of the trained styles (models/README.md, "The finder", session 35).
    finder_sure: float = 0.75
    reader_box_share: float = 0.4  # a box's final edges: this share the face reader's, the rest the detector's
    # The face reader reads each tile at this many turns, evenly spaced, 1 to 4, and takes
    # the mean: a tile lies any way round on a table. Chosen in session 19 on the
    # validation photos, not the training ones (models/README.md): four read a set the
    # readers never saw better than two or one, at four times the face reader's cost.
    reader_turns: int = 4
    # A face-up tile the readers are unsure of (no face `reader_unsure` or likelier: the
    # shipped readers are that sure of nearly every Hong Kong tile, whose photos it so costs
    # little) is read by the text recogniser too (`characters.py`): a face whose characters
    # it reads with probability p has its odds multiplied by 1 + `character_odds` x p,
    # chosen among 0, 50, 400 and 1000 on renders of the held-out styles (models/README.md).
    reader_unsure: float = 0.9
    character_odds: float = 400.0
    # Such a tile that may be a flower is read at its top corners too, where many sets paint
    # a flower's numeral and name small: a flower whose numeral (or name) it reads there
    # with probability p has its odds among the flowers multiplied by 1 + `corner_odds` x p.
    # A corner is a few pixels of a tile seen small, so what it reads weighs less than a
    # whole face's characters: chosen among 0, 10, 50 and 400 on renders of the held-out
    # styles (models/README.md).
    corner_odds: float = 50.0
    # A flower's name read in a corner (春 夏 秋 冬 梅 蘭 菊 竹) is on no other tile, as a
    # numeral is on a 2m too: with probability p it multiplies the odds that the tile is a
    # flower at all by 1 + `name_odds` x p. Chosen among 0, 5, 20, 50 and 100 on the
    # natural photos of every fourth Hong Kong training photo read by the reader that never
    # saw them: the most tiles read right, then the fewest other tiles lost (models/README.md,
    # "A flower's name in a corner").
    name_odds: float = 5.0
    # A tile the readers are unsure of is weighed by its circles too (`suits.py`): the dots'
    # odds times this where it shows a circle a dot's size, the other faces' where it shows
    # none; chosen among 1, 2, 4 and 8 on renders of the held-out styles read by the reader
    # that never saw the Hong Kong set (models/README.md).
    suit_odds: float = 2.0
    # ... and the bamboo's odds times this where it shows sticks. Renders of the held-out
    # styles read by that reader: 1, 2, 4 and 8 read 2454, 2455, 2455 and 2454 of 3323
    # tiles right (8 also lost a kmahjongg-jade tile read by the shipped readers); the
    # larger of the two best, the cue's own likelihood ratio on renders being 8.1
    # (models/README.md).
    stick_odds: float = 4.0
    # A tile read face up whose middle is inked less than `back_ink` and whose ground lies
    # `back_colour` or more (Lab, lightness weighed `back_lightness`) from the median ground
    # of the photo's faces (tiles inked `face_ink` or more, at least `faces_for_colour`) is
    # face down (`backs.py`). Chosen on 10 rendered hands of each held-out style (318 boxed
    # backs, 24 blank 白 up to 21 apart, the darkest in shade) with room to spare, and
    # checked on the Hong Kong felt and corner-indexed validation photos, whose 201 blank 白
    # lie at most 12 apart (models/README.md, "Face down"). A box whose short side is less
    # than `back_side` of the faces' median is a sliver of a tile cut by the photo's edge.
    back_ink: float = 0.03
    back_colour: float = 25.0
    back_lightness: float = 0.25
    face_ink: float = 0.1
    faces_for_colour: int = 2
    back_side: float = 0.5
    # More than four tiles read as 白 with no face's ink side by side in a row, each less than
    # `wall_gap` of its width from the next and of its colour, are a wall of backs whatever that
    # colour is: a set has four 白.
    wall_gap: float = 0.5
    # A tile the face reader thinks at least this likely a flower is read again, larger, by
    # the flower reader; an unsure one the readers still think so likely is read at its corners.
    may_be_a_flower: float = 0.1
    # Windows only when the whole photo shows its tiles smaller than this (network input px):
    # the per-photo median tile side of all but the smallest 5 % of training photos.
    small_tile: float = 30
    # ... and only over a photo whose long side is above `large_photo` times the network's
    # input or `wide_photo` times its short side.
    large_photo: float = 3
    wide_photo: float = 2.2
    # A photo whose tiles (read at `seen` or above) are mostly more than `long_tile` times as
    # long as wide (1 % of training photos show theirs so), or that shows no tile read
    # `sure`, is read again squeezed along either side by each of `stretches`; such a
    # reading counts only with `few_tiles` tiles read `sure`.
    few_tiles: int = 3
    seen: float = 0.25
    sure: float = 0.5
    long_tile: float = 2.5
    close_up: int = 4  # ... unless the finder finds at most this many tiles, in shape: a lone tile or a close-up
    # ... and only along a side the photo is smoothed along: its brightness changing from
    # pixel to pixel less that way, at least `smoothed` times less than the other. Chosen
    # on the Hong Kong validation photos and renders of the held-out styles and scenes
    # (models/README.md, "Out of proportion").
    smoothed: float = 1.4
    stretches: tuple[float, ...] = tuple(2 ** (k / 2) for k in range(1, 9))  # 1.4 to 16 times


DEFAULT = Thresholds()
