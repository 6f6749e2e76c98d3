"""Training the learned risk signal (learned.py) from the committed labelled sets, reproducibly.

    python -m core.listings.offline.training          # rewrites core/listings/offline/learned_weights.json
    python -m core.listings.offline.training --check  # exit 1 unless retraining gives the committed bytes

Each labelled set was written by a different author, so the training treats a set as the unit:
a feature is kept only when it appears in at least MIN_SETS sets (product names rarely do). The
held-out sets still being written are never listed here.

How the signal decides (heuristic-v9), and the rule that sets it, stated before any figure of it was
seen. The training folds underestimated unseen false positives (12 % chosen, 14.6-20.8 % measured),
because the rules were tuned on dev and v1-v5: only on v6 and v7 (v8 too since v10) are the rules' own
flags those of an unseen author, so only they may set the decision.
- A risk term is a seller-word feature (never a rule signal, never the intercept, never only words
  of how the item is sold: learned.SALE_WORDS) whose weight is positive in the fit and in every
  refit leaving one set out (several authors agree it reads as risk), and at least the minimum
  risk weight. The signal asks for a person only when the summed score reaches the threshold AND a
  risk term is present; its issue quotes only risk terms. Sale words ("asking", "cash"), words below
  the minimum weight and words unstable across authors never flag on their own. (SALE_WORDS came
  after a first run in which "cash" alone flagged a listing; the choosing rule below was unchanged.)
- The threshold and the minimum risk weight (one of MIN_RISK_WEIGHTS) are chosen on the honest
  folds among the sets trained on, each honest set scored by weights and risk terms trained
  without it. Admissible: on each honest fold, the listings the signal adds to the rules' flags
  that a person did not need are at most ADDED_FALSE_POSITIVE_SHARE (5 %) of the fold's harmless
  listings. (FP <= 10 % in total is out of reach: the rules alone flag 14.6 % of v7's harmless
  listings; 5 % added keeps rules + signal within the 15 % target wherever the rules stay under 10 %.)
  Among admissible choices: the most listings needing a person caught by rules + signal, pooled
  over the honest folds; ties go to the higher minimum weight, then the higher threshold (fewer
  flags). The threshold is then set halfway to the next lower candidate score, so none sits on
  the edge. With no honest fold among the sets, the signal stays silent.

heuristic-v10, stated before any figure of it was seen. v8 (a ninth author, never used to tune the
rules) joins the training sets and the honest folds: HONEST_SETS = v6, v7, v8. The choosing rule
above is unchanged, now over three folds (max pooled recall, the signal adding <= 5 % false positives
on EACH honest fold, same ties). One feature candidate, decided before measuring by this test only:
title words, each word of the title also as a "title:" feature (its own weight, a risk term under
the same conditions), because a seller who names a fault in the title ("faulty", "spares or
repair", "for parts") makes it the headline about the item, a stronger statement than the same word
among the description's details; it is generic wording, filtered by MIN_SETS like every word.
Adopted only if, in benchmarks/generalization.py's nested leave-one-set-out on the honest folds
(each honest fold's weights and decision trained without it), rules+signal pooled honest recall is
strictly higher than without it, pooled honest false positives rise by at most 1.0 point and pooled
in range falls by at most 1.0 point; otherwise the v9 features stay. No other feature is tried, and
L2, STEPS, MIN_SETS, MIN_RISK_WEIGHTS and the 5 % share stay as they are.
Outcome: with title words the pooled honest figures were the same (recall 85.6 %, false positives
12.2 %, in range 84.9 %), not strictly higher, so title words were not adopted.

heuristic-v11, stated before it was trained. v9 (a tenth author) joins the training sets. The rule
changes of v11 (thin descriptions that name a detail, dents on appliances, overdue checks, recall
letters, disclaimed brands, denials past "or been") were checked against every set, v6-v8 included,
so the honest folds are no longer strictly unseen by the rules; they still set the decision by the
unchanged choosing rule (nothing else is tried). The fresh sets v10 and v11, written blind before these
changes, gave the honest figures of its first step; then they joined the training sets and the rules
were changed by their errors too (second step), measured on v12 and v13, written blind meanwhile.

heuristic-v12, stated before it was trained. v10-v13 showed the decision chosen on v6-v8 adding 6-14 %
false positives on new authors' sets (the signal alone flagged 14 % of v10's and v11's harmless
listings in benchmarks/generalization.py). So the decision is now set on every blind author's set
from v6 on: DECISION_SETS = v6-v13 (they replace HONEST_SETS; each is still scored by weights and risk
terms trained without it, and the rules were tuned on all of them). The choosing rule is unchanged
(each decision fold at most 5 % added false positives, the most listings caught pooled, same ties);
nothing else is tried. v12 and v13 join the training sets; v14 and v15, written blind meanwhile, give
the honest figures.

heuristic-v13, stated before it was trained. v14 and v15 join the training sets and the decision sets
(DECISION_SETS = v6-v15); the rules were changed by their errors (numbers written with a decimal comma
or thousands, words of six other languages, injectables, unlabelled chemicals, flood damage, interlocks).
Nothing else changes: the same choosing rule, features and constants. v16, v17 and v18, written blind
before these changes, give the honest figures.

heuristic-v14, stated before it was trained. v16, v17 and v18 join the training and decision sets
(DECISION_SETS = v6-v18) after their honest figures were taken; the rules were changed by their errors.
Nothing else changes. v19, v20 and v21, written blind before these changes, give the honest figures.

heuristic-v15, stated before it was trained and before v22-v24 were read by anything. On v16-v21 (six new
authors) the rules' own flags stayed at 45-58 % recall whatever the rules learnt from the sets before them,
while the signal's ranking would have reached 85 % recall within 15 % false positives; the decision left
most of that unused, because every decision fold had to stay within its own 5 % and the one most unusual
author of sixteen set the threshold. The admissibility rule becomes pooled: the false positives the signal
adds, summed over the decision folds, are at most ADDED_FALSE_POSITIVE_SHARE (still 5 %) of all their
harmless listings; the target (15 % on unseen data) is a pooled rate too. Everything else is unchanged
(the most listings caught pooled, ties to the higher least weight, then the higher threshold). v19-v21
join the training and decision sets (DECISION_SETS = v6-v21); v22, v23 and v24, written blind meanwhile,
give the honest figures.

heuristic-v16, stated before it was trained and before v25-v27 were read by anything. On v22-v24 the
decision folds' false-positive rate, rules and signal together, foretold the unseen one within a point at
every budget tried after the fact (8.6 % on the folds, 9.3 % unseen at the shipped 5 %; 13.8 and 13.3 % at
10 %), while recall stayed at 82 % against a 90 % target and false positives at 9 % against a 15 % ceiling.
So the budget is now stated as the target is: the false positives of rules and signal together, pooled
over the decision folds, are at most FALSE_POSITIVE_SHARE (12 %, three points below the 15 % target for
the spread between authors) of all their harmless listings; the signal may add what the rules leave of
it. Everything else is unchanged (the most listings caught pooled, ties to the higher least weight, then
the higher threshold). v22-v24 join the training and decision sets (DECISION_SETS = v6-v24); v25, v26 and
v27, written blind meanwhile, give the honest figures.

heuristic-v17, stated before it was trained and before v28-v30 were read by anything. v25-v27 join the
training and decision sets (DECISION_SETS = v6-v27) after their honest figures were taken (pooled 12.7 %
false positives against the folds' 12 %); the rules were changed by their errors. Nothing else changes.
v28, v29 and v30, written blind meanwhile, give the honest figures.

heuristic-v18, stated before it was trained and before v31-v33 were read by anything. Under the pooled 12 %
budget the unseen false-positive rate came out 0.7 points above the folds' on v25-v27 (12.7 %) and 5.4 points
above on v28-v30 (17.3 %): the rules flag a new author's harmless listings far more often (8-10 %) than
those of the sets they were tuned on. So the budget keeps that largest gap between it and the 15 % target:
FALSE_POSITIVE_SHARE = 15 % - 5.4 points, rounded down to a whole percent: 9 %. v28-v30 join the training
and decision sets (DECISION_SETS = v6-v30); the rules were changed by their errors. Nothing else changes.
v31, v32 and v33, written blind meanwhile, give the honest figures.

heuristic-v19, stated before it was trained and before v34-v36 were read by anything. On v31-v33 the
unseen false-positive rate was 11.3 %, 2.3 points above the folds' 9 %: within the largest gap seen, so the
budget stays at 9 %. v31-v33 join the training and decision sets (DECISION_SETS = v6-v33); the rules were
changed by their errors. Nothing else changes. v34, v35 and v36, written blind meanwhile, give the honest
figures.

heuristic-v20, stated before it was trained and before v37-v39 were read by anything. On v34-v36 the unseen
false-positive rate was 12.6 %, within the largest gap seen, so the budget stays at 9 %. v34-v36 join the
training and decision sets (DECISION_SETS = v6-v36); the rules were changed by their errors. Nothing else
changes. v37, v38 and v39, written blind meanwhile, give the honest figures.

heuristic-v21, stated before it was trained and before v40-v45 were read by anything (only heuristic-v20's
pooled figures on them were seen). On v37-v39 the unseen false-positive rate was 14.0 %, 5.0 points above
the folds' 9 %: within the largest gap seen, so the budget stays at 9 %. v37-v39 join the training and
decision sets (DECISION_SETS = v6-v39); the rules were changed by their errors. Nothing else changes.
v40-v45, written blind before these changes, give the honest figures.

heuristic-v22, stated before it was trained and before v46-v48 were read by anything (only heuristic-v21's
pooled figures on them were seen, and they set nothing here). On v40-v45 the unseen false-positive rate was
8.3 %, 0.7 points below the folds' 9 %, so the budget stays at 9 %. v40-v45 join the training and decision
sets (DECISION_SETS = v6-v45); the rules were changed by their errors. One feature change was tried on the
decision folds before training and not adopted: counting 60 more particles and adverbs ("off", "back",
"never") as function words, which only pairs may carry, gave 92.0 % fold recall at 8.8 % false positives
against 92.6 % at 8.8 % without. Nothing else changes. v46, v47 and v48, written blind meanwhile, give the
honest figures.

heuristic-v23, stated before it was trained and before v49-v51 were read by anything (only heuristic-v22's
pooled figures on them were seen, and they set nothing here). On v46-v48 the unseen false-positive rate was
17.3 %, 8.3 points above the folds' 9 %: a larger gap than any before (5.4 on v28-v30). By the rule of
heuristic-v18 the budget keeps that gap below the 15 % target: FALSE_POSITIVE_SHARE = 15 % - 8.3 points,
rounded down to a whole percent: 6 %. v46-v48 join the training and decision sets (DECISION_SETS = v6-v48);
the rules were changed by their errors. Nothing else changes. v49, v50 and v51, written blind meanwhile,
give the honest figures.

heuristic-v24, stated before it was trained and before v58-v63 were read by anything. The largest-gap rule
of heuristic-v18 follows the single worst group of three sets; at 6 % heuristic-v23 lost 6 to 9 points of
recall against heuristic-v22 (9 %) on every later group, for 3 points fewer false positives. From here the
budget is the largest whole percent whose pooled false-positive rate over every listing measured blind at
that budget is at most 13 %, two points below the 15 % target: 12 % gave 15.0 % (45/300, v25-v30), 9 % gave
11.9 % (157/1316: v31-v48, and heuristic-v22 on v49-v57), 6 % gave 8.9 % (37/415, heuristic-v23 on
v49-v57). So FALSE_POSITIVE_SHARE = 9 %. Disclosed: heuristic-v22's and v23's pooled figures on v52-v57 were
seen before this rule was written, and any threshold from 12 % to 14.9 % picks the same budget. v49-v51 join
the training and decision sets (DECISION_SETS = v6-v51); the rules were changed by their errors. v52-v57
stay out (none of their listings was read; only those pooled figures were seen). Nothing else changes.
v58-v63, written blind meanwhile, give the honest figures.

heuristic-v25, stated before it was trained and before v64-v73 were read by anything (only heuristic-v23's
and v24's pooled figures on v64-v68 were seen). The budget rule of heuristic-v24, with each set counted once
by the first 9 % version measured blind on it, now pools 242 false positives over 1866 harmless listings at
9 % (v31-v48, heuristic-v22 on v49-v57, heuristic-v24 on v58-v68): 12.97 %, at most 13 %, so
FALSE_POSITIVE_SHARE stays 9 % (v65 alone, an author who counts legal vapes and CBD as ordinary goods, adds
30 of the 242). The training sets stay v1-v51 (DECISION_SETS = v6-v51): the refits grow with the cube of
the number of sets, and at v1-v63 retraining took over 20 minutes here, too long for the byte-for-byte test
in CI; the weights are refitted on the same sets because the rules, whose findings are features, changed by
v58-v63's errors (v52-v57's listings were not read). Nothing else changes. v64-v73, written blind before
these changes, give the honest figures.

heuristic-v26, stated before it was trained and before v74-v79 were read by anything (only heuristic-v25's
pooled figures on them were seen: 85.0 % recall, 11.0 % false positives, 86.5 % in range). No rule changes.
Two changes to the training, both so that more authors' sets can be trained on:
- Stability by groups of sets. A risk term must be positive in the fit and in every refit leaving one GROUP
  of sets out, and each decision set is scored for the decision by weights and risk terms trained without its
  group. The groups: the dev set with v1-v5 (the rules' first tuning sets), then the decision sets in runs of
  GROUP_SIZE = 7 from v6 (v6-v12, v13-v19, ...). Leaving a group out leaves each of its authors out, so a word
  only one author reads as risk still fails the check. With G groups, training takes G + G(G-1)/2 refits,
  whatever the number of sets, instead of one per pair of sets. Retraining then takes a few minutes, not tens,
  and the byte-for-byte check returns to the default CI run.
- v52-v68 join the training and decision sets (DECISION_SETS = v6-v68: nine groups of seven). v52-v57 and
  v64-v68 were never read (only pooled figures were seen); v58-v63's errors shaped heuristic-v25's rules.
The budget, by heuristic-v24's rule with heuristic-v25 on v69-v73 (32 of 250) and on v74-v79 (33 of 300)
added: 307 false positives over 2416 harmless listings measured blind at 9 %, 12.71 %, so FALSE_POSITIVE_SHARE
stays 9 %. Nothing else changes (features, L2, STEPS, MIN_SETS, MIN_RISK_WEIGHTS, the choosing rule).
Adopted only if, pooled over v69-v79 (990 listings by eleven authors, none trained on), recall is at least
heuristic-v25's (380 of 440, 86.4 %), false positives at most 1.0 point above its 65 of 550 (11.8 %), and in
range at most 1.0 point below its 857 of 990 (86.6 %). Otherwise heuristic-v25's weights and training stay.
Outcome: not adopted. Trained this way (v1-v68, 3463 risk terms, threshold 0.2964, in about two minutes
instead of over twenty), pooled over v69-v79 it gave 376 of 440 (85.5 %) recall, 59 of 550 (10.7 %) false
positives and 86.9 % in range: fewer listings caught than heuristic-v25's 380, so by the rule above
heuristic-v25's weights and training stay (LAST_SET = 51, stability by single sets). The code that was
measured is in the commit that stated this paragraph.

heuristic-v27, stated before it was trained and before v80-v85 were read by anything (only heuristic-v25's
pooled figures on them were seen: 87.9 % recall, 12.7 % false positives, 85.4 % in range). The rules gained
one general numeric mechanism, written from the contradictions the development sets' reviews missed (an
attribute stating one number in its unit, against the title's and the description's numbers in that unit);
v64-v85 were not read. The weights are refitted on the same v1-v51, because the rules' findings are
features; the training is heuristic-v25's. The budget, by heuristic-v24's rule with heuristic-v25 on v80-v85
(38 of 300) added: 345 false positives over 2716 harmless listings measured blind at 9 %, 12.70 %, so
FALSE_POSITIVE_SHARE stays 9 %. Nothing else changes. v69-v85 give the honest figures (v80-v85 written after
heuristic-v26 was measured; v69-v79 were measured with heuristic-v25 and v26 before, and set nothing here).

heuristic-v28, stated before it was trained and before v86-v91 were read by anything. The rules gained one
general incompleteness mechanism, written from the too-incomplete listings the development sets' reviews
missed: a description of a few words that sends the buyer to a message, the photos or an offer for the
details, with at most one item specific. v52-v57 and v64-v91 were not read. The weights are refitted on the
same v1-v51; the training is heuristic-v25's. The budget stays 9 % by heuristic-v24's rule (no set was first
measured blind since heuristic-v27: 345 of 2716, 12.70 %). Nothing else changes. v86-v91, written blind before
this change, give the honest figures, beside the sets measured before.

heuristic-v29, stated before it was trained and before v92-v97 were read by anything (no reviewer's figures
on them were seen; their themes were chosen when the helpers were briefed, before any rule was written). The
rules gained, written from the contradictions the development sets' reviews missed: a measure in prose is
held only by its own range or by a clause before it naming another item, not by any range or "fits" in its
sentence, nor by words after a comma; storage in words ("64 gig"); a size ends at a unit ("4 x 4MP" is no
size); a feature the title claims that the listing rules out (EXCLUSIVE_FEATURES: a colour printer that is
mono only, a round table with an oval top); a pure wax that is a blend. v52-v57 and v64-v97 were not read. The
weights are refitted on the same v1-v51; the training is heuristic-v25's. The budget, by heuristic-v24's rule
with heuristic-v27 on v86-v91 (38 of 300) added: 383 false positives over 3016 harmless listings measured
blind at 9 %, 12.70 %, so FALSE_POSITIVE_SHARE stays 9 %. Nothing else changes. Adopted only if, pooled over
v92-v97 (540 listings by six authors), it catches at least as many listings as heuristic-v28 with false
positives at most 1.0 point higher and in range at most 1.0 point lower; otherwise heuristic-v28 stays.
Outcome: adopted. Retrained on v1-v51, no weight and not the threshold changed (0.2034). Pooled over v92-v97
it caught 207 of 240 (86.2 %) against heuristic-v28's 206 (85.8 %), with 35 of 300 false positives (11.7 %)
against 36 (12.0 %) and 80.6 % in range against 80.2 %.

heuristic-v30, stated before it was trained and measured: heuristic-v29 corrected after a review that wrote
its own harmless listings and found v29's new rules flagging them (a range with a unit on each end, a place
named after a measure, "4 gigs" played, a size ending a sentence, an old corded drill, a Lightning adapter,
"UK only" postage, a round table that extends to an oval). No held-out set was read; on the development sets
the rules alone go from 1598 to 1597 caught for the same 88 false positives (the shape row, dropped, caught
one). The weights are refitted on the same v1-v51; the training is heuristic-v25's; the budget stays 9 %
(heuristic-v24's rule: 454 false positives over 3616 harmless listings measured blind at 9 %, 12.56 %).
Adopted only if, pooled over v92-v103 (1080 listings by twelve authors), it catches at least as many listings
as heuristic-v29 (426 of 480) with false positives at most 1.0 point higher and in range at most 1.0 point
lower; otherwise heuristic-v29 stays. Outcome: adopted. Retrained, no weight and not the threshold changed.
Pooled over v92-v103 it gave the same figures as heuristic-v29: 426 of 480 caught (88.8 %), 71 of 600 false
positives (11.8 %), 82.4 % in range.

heuristic-v31, stated before it was trained and measured: heuristic-v30 corrected after a second review, which
again wrote its own harmless and contradictory listings. It found v30 flagging lists of specs read as ranges
("5kg - 120cm"), a former state after a comma ("3m long, cut down to fit"), "gig" in other senses (a gig bag,
a 10 gig NIC, data left, the maker Gigabyte), a ruling-out word on another item or in a comparison ("replaces
my old mono laser", "cleaner than a soy-paraffin blend"), on a part (a base station that is mains only) or a
setting ("set to UK region"), and cables naming both ports; and missing "cms", "mtrs" and "70cm up to 120cm".
The connector rows were dropped. No held-out set was read; on the development sets the rules alone go from
1597 to 1596 caught for the same 88 false positives (the connector rows caught one). The weights are refitted
on the same v1-v51; the training is heuristic-v25's; the budget stays 9 %. Adopted only if, pooled over
v92-v103, it catches at least as many listings as heuristic-v30 (426 of 480) with false positives at most 1.0
point higher and in range at most 1.0 point lower; otherwise heuristic-v30 stays. v104-v109, written blind on
themes this session never saw, are left unmeasured for the next change. Outcome: not adopted. Retrained, no
weight and not the threshold changed; pooled over v92-v103 it caught 425 of 480 (88.5 %) against
heuristic-v30's 426, with the same 71 of 600 false positives and 82.3 % in range against 82.4 %: one listing
fewer, so by the rule above heuristic-v30 stays. The measured code is in the commit that stated this
paragraph; the review's listings that v30 flags or misses are listed there as tests.

heuristic-v32, stated before it was trained and measured: heuristic-v31's rules, with "mains only" and "corded
only" kept in the battery row and a part named before them ("base station", "charger", "dock") read as
another item's, plus three additions from the development sets' missed contradictions: a count of things each
of a stated weight or volume ("10 x 100g balls", "2 x 6 tonne axle stands"; a kit's counted parts add up), an
attribute named for what is counted in the plural ("packs": "18"; not "batteries"), and a word between
"weekend" and "ticket". Disclosed: v31 was rejected on v92-v103 by one listing, whose id alone I read
(h97-corded-cordless-trimmer), and that is why the battery row keeps "mains only" with the part guard; while
appending v110-v115's README sections by script, the headings of v104-v109 (their themes, not their listings)
were printed once, after v31's parts were chosen and before the three additions. On the development sets the
rules alone go from 1597 (heuristic-v30) to 1601 caught for the same 88 false positives. The weights are
refitted on the same v1-v51; the training is heuristic-v25's; the budget stays 9 %. Adopted only if, pooled
over v104-v115 (1080 listings by twelve authors, none measured before; v110-v115 written in this session,
committed before this paragraph), it catches at least as many listings as heuristic-v30 with false positives
at most 1.0 point higher and in range at most 1.0 point lower; otherwise heuristic-v30 stays. Outcome:
adopted. Retrained, no weight and not the threshold changed. Pooled over v104-v115 it caught 398 of 480
(82.9 %), as many as heuristic-v30, with 83 of 600 false positives against 82 (13.8 against 13.7 %) and 81.7 %
in range against 81.8 %. The new sets are harder than the earlier ones: both versions catch under 83 %.

heuristic-v33, stated before it was trained and measured. For this change the 46 sets measured before
heuristic-v32 (v52-v57, v64-v103) became development data: their missed contradictions were read, and
v104-v115 (measured once, not read) and v116-v121 (never measured) stay held out. New: an attribute named for
a feature that the title claims ("with a skeg", "built-in GPS", or Bluetooth, Wi-Fi and the like) that says
only "no" or "none"; feature rows for a down or synthetic fill, a disc or digital console, a double or single
cab, a first pressing or a reissue, a perfume's concentration, DCC sound or ready, a dual or single motor, a
petrol or mains engine, a straight or curved stairlift; a pure fibre against a label naming another fibre at
a share, unless a part of the garment is named before it; the fineness of gold and a motor's rpm as numeric
kinds; shoe sizes in the same numbering compared exactly. A helper reviewed the first draft with 88 invented
listings (none from a set) and found 31 harmless ones it flagged and 6 contradictions it stopped catching;
the fixes are in this step and the review's listings are tests. Rules alone: on the original development
sets (the dev set, v1-v51, v58-v63) 1601 -> 1602 caught for the same 88 false positives; on those plus v52-v57
and v64-v103, 2637 -> 2656 of 4089 caught for the same 276 of 5091 false positives. The weights are refitted
on the same v1-v51; the training is heuristic-v25's; the budget stays 9 %. Adopted only if, pooled over
v116-v121 (540 listings by six authors, written blind after heuristic-v32 was stated and never measured), it
catches at least as many listings as heuristic-v32 with false positives at most 1.0 point higher and in range
at most 1.0 point lower; otherwise heuristic-v32 stays. Outcome: adopted, with no effect on unseen sets.
Retrained, no weight and not the threshold changed. On v116-v121 it flags exactly the listings heuristic-v32
flags: 212 of 240 caught (88.3 %), 38 of 300 false positives (12.7 %), 83.7 % in range. On v104-v115 too, and
so on all 18 unseen sets: the rules mined from 46 development sets' misses catch nothing their authors wrote.

heuristic-v34, stated before it was trained and measured: heuristic-v33's rules, unchanged, with the learned
signal trained on every development set instead of v1-v51: the dev set and v1-v103 (LAST_SET = 103; v52-v103
were read as development data for heuristic-v33 and earlier). The decision folds stay v6-v51
(LAST_DECISION_SET = 51), so the refits grow twice over, not with the cube. The training is heuristic-v25's
(stability by every single set left out, L2, STEPS, MIN_SETS, MIN_RISK_WEIGHTS, the choosing rule); the
budget stays 9 % (heuristic-v24's rule: 575 false positives over 4516 harmless listings measured blind at
9 %, 12.73 %). Adopted only if, pooled over v122-v127 (540 listings by six authors, written blind after
heuristic-v33 was adopted; only heuristic-v33's figures on them were taken: 207 of 240 caught, 35 of 300
false positives, 84.3 % in range), it catches at least 207 listings with false positives at most 1.0 point
higher and in range at most 1.0 point lower; otherwise heuristic-v33 and its weights stay. Outcome: adopted.
Trained in about an hour on two cores: 23225 weights (11427 before), 6420 risk terms, threshold 0.2252
(0.2034), least risk weight 0. Pooled over v122-v127 it caught 210 of 240 (87.5 %) against 207, with 33 of 300
false positives (11.0 %) against 35 and 85.2 % in range against 84.3 %. On v104-v121, measured with
heuristic-v33 before and not trained on: 619 of 720 caught (86.0 %) against 610, 104 of 900 false positives
(11.6 %) against 121, 83.9 % in range against 82.3 %. The rules flag exactly as before.

heuristic-v35, stated before it was trained and measured (restated before its first training finished and
before anything of it was measured, to add the two checks): heuristic-v34's rules with two numeric checks, and
the learned signal trained on v104-v121 as well (LAST_SET = 121). Those 18 sets were measured with
heuristic-v30 to v34 and never read before this step; they join the development data, and v122-v127 (which
decided heuristic-v34) stay out as a second unseen measure. The checks, from the contradictions the rules
missed in the development sets (the dev set, v1-v121): an item bought new ("I bought it new in 2011") more
than a year before the year the title dates it to (first in the title, or before "model") or a year attribute
gives; a letter size in the title ("size M", "mens L", a bare "XL" last or before "with") against a size
attribute that is one other letter size, except in children's titles. A first draft (3009 -> 3022 of 4809
caught by rules alone on the dev set and v1-v121, the same 354 of 5991 false positives) began training; before
anything was measured, tests and a helper's review of 52 invented harmless listings (51 flagged: brands such
as M&S and L.L.Bean, "XL Bully", model years sold the year before, years of events, services and warranties,
other items' sizes in a bundle) narrowed it to the checks above, and the training was restarted. Rules alone
on the dev set and v1-v121: 3009 -> 3020 caught, the same 354 false positives. The decision folds stay v6-v51;
the training is heuristic-v25's; the budget stays 9 % (heuristic-v24's rule, each set counted once: with
heuristic-v34's first figures on v128-v133 added, 637 false positives over 5116 harmless listings measured
blind at 9 %, 12.45 %). Adopted only if, pooled over v128-v133 (540 listings by six authors, written blind
after heuristic-v34 was adopted; only heuristic-v34's figures on them were taken: 207 of 240 caught, 27 of 300
false positives, 86.9 % in range), it catches at least 207 listings with false positives at most 1.0 point
higher and in range at most 1.0 point lower; otherwise heuristic-v34 and its weights stay. Outcome: adopted,
by the rule's tie. Trained in 57 minutes on two cores: 27163 weights (23225 before), 276 risk terms (6420),
threshold 0.2618 (0.2252), least risk weight 0.1 (0). Pooled over v128-v133 it caught the same 207 of 240 with
the same 27 of 300 false positives and 86.9 % in range (rules alone: 129 of 240 and 21 of 300 with either
version's rules). On v122-v127 (not trained on): 210 of 240 caught as before, 35 of 300 false positives
against 33, 84.8 % in range against 85.2 %. The step moved nothing on unseen authors.

heuristic-v36, stated before it was trained and measured: heuristic-v35's rules and training sets, with the
budget at 10 % (FALSE_POSITIVE_SHARE) instead of 9 %. Three steps of rules mined from development misses moved
nothing on unseen authors, while unseen false positives stay below heuristic-v24's 13 % line: with
heuristic-v35's first figures on v134-v139 added (37 of 300), 674 false positives over 5416 harmless listings
measured blind at 9 %, 12.44 %. Heuristic-v24's rule takes the largest whole percent whose false positives
measured blind are at most 13 %, but only 6, 9 and 12 % were ever measured; 10 % is measured here for the
first time. Adopted only if, pooled over v134-v139 (540 listings by six authors, written blind after
heuristic-v34 was adopted; only heuristic-v35's figures on them were taken: 212 of 240 caught, 37 of 300 false
positives, 84.4 % in range), it catches more than 212 listings with in range at most 1.0 point lower, and its
false positives pooled over every set measured blind at 10 % (v122-v139: 900 harmless listings, none trained
on) are at most 13 %; otherwise heuristic-v35, its budget and its weights stay. Outcome: adopted. Trained in
70 minutes on two cores beside the test suite: the same 27163 weights and 276 risk terms, least risk weight
0.1, threshold 0.1797 (0.2618); the same folds at 9 % give heuristic-v35's weights exactly. Pooled over
v134-v139 it caught 213 of 240 (88.8 %) against 212, with the same 37 of 300 false positives (12.3 %) and
84.6 % in range against 84.4 %. On v122-v133: 420 of 480 caught against 417, the same 62 of 600 false
positives, 86.1 % in range against 85.8 %. False positives measured blind at 10 %: 99 of 900 (11.0 %). A small
step: 4 more of 720 caught on 18 unseen sets, no more false positives.

heuristic-v37, stated before it was trained and measured: heuristic-v36's rules, weights and training sets,
with the budget at 11 % instead of 10 %, the next whole percent heuristic-v24's rule can test. False
positives measured blind at 10 %, with heuristic-v36's first figures on v140-v145 added (40 of 300): 139 over
1200 harmless listings (v122-v145, none trained on), 11.58 %. Adopted only if, pooled over v140-v145 (540
listings by six authors, written blind after heuristic-v36 was stated and never read; only heuristic-v36's
figures on them were taken: 216 of 240 caught, 40 of 300 false positives, 85.0 % in range), it catches more
than 216 listings with in range at most 1.0 point lower, and its false positives pooled over every set
measured blind at 11 % (v122-v145: 1200 harmless listings) are at most 13 %; otherwise heuristic-v36, its
budget and its weights stay. Outcome: not adopted. Heuristic-v36's saved honest folds (they do not depend on
the budget) chosen at 11 % gave the same weights and risk terms with threshold 0.112 (0.1797). Pooled over
v140-v145 it caught the same 216 of 240 with 41 of 300 false positives against 40 and 84.8 % in range against
85.0 %. On v122-v139: 638 of 720 caught against 633, 103 of 900 false positives against 99. False positives
measured blind at 11 %: 144 of 1200 (12.0 %). The budget stays 10 %.

heuristic-v38, stated before it is trained and measured: heuristic-v36's rules and budget (10 %), with the
learned signal trained on v122-v145 as well (LAST_SET = 145). Those 24 sets were measured with heuristic-v33
to v37 and never read; they join the development data. The decision folds stay v6-v51; the training is
heuristic-v25's. Adopted only if, pooled over v146-v151 (540 listings by six authors, written blind while it
trains and never read; heuristic-v36's figures on them are taken before any of heuristic-v38's), it catches
more listings than heuristic-v36, or as many with fewer false positives, with false positives at most 1.0
point higher and in range at most 1.0 point lower; otherwise heuristic-v36 and its weights stay. Outcome:
adopted, by the rule's second clause. Trained in 72 minutes on two cores: 32038 weights (27163 before), 272
risk terms (276), threshold 0.1803 (0.1797), least risk weight 0.1. Pooled over v146-v151 it caught the same
210 of 240 (87.5 %) as heuristic-v36, with 39 of 300 false positives (13.0 %) against 41 and 84.3 % in range
against 83.9 %: one more safety and one more medical listing caught, two contradictions fewer.
"""

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import cached_property
from multiprocessing import get_context
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from core.listings.draft import ListingDraft
from core.listings.evaluation.dataset import load_dataset
from core.listings.offline.learned import WEIGHTS_FILE, RiskModel, explains
from core.listings.offline.reviewer import rule_features

ROOT = Path(__file__).resolve().parents[3]
HELDOUT = "sample_catalogs/heldout/"
LAST_SET = 145  # the newest set trained on: the development sets, v104-v121 (heuristic-v35), v122-v145 (v38)
LAST_DECISION_SET = 51  # the decision folds v6-v51: more would grow training with the cube of the sets
TRAINING_SETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("dev", ("sample_catalogs/eval_listings.jsonl", "sample_catalogs/reference_format_example.jsonl")),
    ("v1", (HELDOUT + "heldout_listings.jsonl",)),
    *((f"v{number}", (f"{HELDOUT}heldout_v{number}_listings.jsonl",)) for number in range(2, LAST_SET + 1)),
)
# Every blind author's set from v6 on sets the decision (heuristic-v12, module docstring).
DECISION_SETS = tuple(f"v{number}" for number in range(6, LAST_DECISION_SET + 1))
MIN_SETS = 3  # a feature must appear in this many authors' sets to get a weight
L2 = 0.003  # chosen with STEPS by pooled leave-one-set-out recall (heuristic-v8)
STEPS = 300
LEARNING_RATE = 0.5
FALSE_POSITIVE_SHARE = 0.10  # of the decision folds' harmless listings rules and signal may flag, pooled
MIN_RISK_WEIGHTS = (0.0, 0.1, 0.2, 0.3)  # the candidates for a risk term's least weight
DECIMALS = 4  # weights are stored rounded, and the threshold is chosen on the rounded weights
ABOUT = ("Learned risk weights; regenerate with: python -m core.listings.offline.training. Flags only when "
         "the score reaches the threshold and a risk term (seller words about the item, not how it is sold, "
         "positive in every leave-one-set-out refit, at least minRiskWeight) is present. Threshold and "
         "minRiskWeight maximise rules+signal recall on the decision folds "
         f"v6-v{LAST_DECISION_SET} (each scored by weights trained without it) with rules and signal "
         f"flagging at most {FALSE_POSITIVE_SHARE * 100:g} % of the folds' harmless listings, pooled; ties "
         "to the higher weight, then threshold.")


@dataclass(frozen=True)
class Example:
    """One labelled listing as the trainer sees it."""

    features: frozenset[str]
    needs_review: bool
    rules_flag: bool  # the rules alone already send it to a person

    @cached_property
    def ordered(self) -> tuple[str, ...]:
        """Sorted once, not in each of the hundreds of refits."""
        return tuple(sorted(self.features))


@dataclass(frozen=True)
class LabelledSet:
    name: str
    examples: tuple[Example, ...]

    @cached_property
    def features(self) -> frozenset[str]:
        return frozenset(f for example in self.examples for f in example.features)


@dataclass(frozen=True)
class Scored:
    """A listing of an honest fold as a model trained without that fold sees it."""

    score: float
    strongest: float  # the weight of its strongest stable risk word, -inf when it has none
    example: Example


@dataclass(frozen=True)
class Decision:
    threshold: float
    min_risk_weight: float


def load_sets(root: Path = ROOT, names: Sequence[str] | None = None) -> list[LabelledSet]:
    """The training sets (all, or those named), each listing reviewed by the rules once."""
    return [LabelledSet(name, tuple(_examples(root, files)))
            for name, files in TRAINING_SETS if names is None or name in names]


def _examples(root: Path, files: tuple[str, ...]) -> list[Example]:
    cases = [case for file in files for case in load_dataset(root / file)]
    return [_example(case.draft, case.expect.requires_human_review) for case in cases]


def _example(draft: ListingDraft, needs_review: bool) -> Example:
    features, flagged = rule_features(draft)
    return Example(frozenset(features), needs_review, flagged)


def train(sets: Sequence[LabelledSet], workers: int | None = None) -> RiskModel:
    """Weights from all the sets; the decision from the honest folds among them (module docstring)."""
    positive, numbered = _refit_all(sets, workers), _Numbered.of(sets)
    model = fit_stable(sets, positive, numbered)
    folds = [_honest_fold(held, _without(sets, held), positive, numbered)
             for held in sets if held.name in DECISION_SETS]
    decision = choose_decision(folds)
    terms = frozenset(f for f in model.risk_terms if model.weights[f] >= decision.min_risk_weight)
    return replace(model, threshold=decision.threshold, risk_terms=terms,
                   min_risk_weight=decision.min_risk_weight)


def _without(sets: Sequence[LabelledSet], held: LabelledSet) -> list[LabelledSet]:
    return [labelled for labelled in sets if labelled is not held]


Positive = Callable[[Sequence[LabelledSet]], frozenset[str]]


def _positive_features(sets: Sequence[LabelledSet], numbered: "_Numbered | None" = None) -> frozenset[str]:
    return frozenset(feature for feature, weight in fit(sets, numbered).weights.items() if weight > 0)


def fit_stable(sets: Sequence[LabelledSet], positive: Positive = _positive_features,
               numbered: "_Numbered | None" = None) -> RiskModel:
    """The fit, with every stable risk word as a risk term: a seller-word feature about the item,
    positive here and in each refit leaving one set out, so no single author's wording makes a risk."""
    model = fit(sets, numbered)
    refits = [positive(_without(sets, held)) for held in sets]
    stable = frozenset(feature for feature, weight in model.weights.items()
                       if weight > 0 and explains(feature) and all(feature in refit for refit in refits))
    return replace(model, risk_terms=stable)


def _refit_all(sets: Sequence[LabelledSet], workers: int | None) -> Positive:
    """Every refit the stable-word checks need, each once and on every core: without one set (for the
    model) and without a decision set and one more (for its honest fold; the folds of sets a and b both
    need the refit without a and b). Training time grows with the cube of the number of sets; each fit
    is deterministic, so the weights are the same bytes whichever process computed them."""
    names = frozenset(labelled.name for labelled in sets)
    held = [name for name in sorted(names) if name in DECISION_SETS]
    left_out = sorted({frozenset((name,)) for name in names}
                      | {frozenset((first, other)) for first in held for other in names if other != first},
                      key=sorted)
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=_share,
                             initargs=(tuple(sets),)) as pool:
        positives = dict(zip(left_out, pool.map(_positive_without, left_out, chunksize=8), strict=True))
    return lambda seen: positives[names - {labelled.name for labelled in seen}]


_SHARED: tuple[LabelledSet, ...] = ()  # the training sets, in each worker process of _refit_all
_SHARED_NUMBERED: "_Numbered | None" = None  # and their features, numbered once per worker


def _share(sets: tuple[LabelledSet, ...]) -> None:
    global _SHARED, _SHARED_NUMBERED
    _SHARED, _SHARED_NUMBERED = sets, _Numbered.of(sets)


def _positive_without(left_out: frozenset[str]) -> frozenset[str]:
    return _positive_features([labelled for labelled in _SHARED if labelled.name not in left_out],
                              _SHARED_NUMBERED)


def _honest_fold(held: LabelledSet, others: Sequence[LabelledSet], positive: Positive,
                 numbered: "_Numbered") -> list[Scored]:
    """Each listing of `held` scored by weights and risk words trained without it, as a new author's."""
    model = fit_stable(others, positive, numbered)
    return [Scored(model.score(example.features), _strongest_term(model, example.features), example)
            for example in held.examples]


def _strongest_term(model: RiskModel, features: frozenset[str]) -> float:
    return max((model.weights[f] for f in features if f in model.risk_terms), default=-math.inf)


def fit(sets: Sequence[LabelledSet], numbered: "_Numbered | None" = None) -> RiskModel:
    """L2-regularised logistic regression on feature presence, by a fixed number of full-batch
    gradient steps from zero: no randomness, so the same sets always give the same weights. `numbered`
    holds these sets' features (and maybe more sets'), numbered once for many refits."""
    vocabulary, present = (numbered or _Numbered.of(sets)).presence(sets)
    labels = np.array([example.needs_review for labelled in sets for example in labelled.examples], float)
    weights, bias = np.zeros(len(vocabulary)), 0.0
    for _ in range(STEPS):
        error = 1 / (1 + np.exp(-(present.times(weights) + bias))) - labels
        weights -= LEARNING_RATE * (present.transposed_times(error) / len(labels) + L2 * weights)
        bias -= LEARNING_RATE * float(error.mean())
    rounded = {feature: round(float(weight), DECIMALS)
               for feature, weight in zip(vocabulary, weights, strict=True)}
    return RiskModel(weights=rounded, threshold=0.0, bias=round(bias, DECIMALS))


@dataclass(frozen=True)
class _Presence:
    """The 0/1 example-by-feature matrix kept as its ones only: a listing has a few dozen of the
    vocabulary's features, so the products are sums over those (bincount adds in a fixed order)."""

    rows: NDArray[np.intp]
    columns: NDArray[np.intp]
    shape: tuple[int, int]

    def times(self, vector: NDArray[np.float64]) -> NDArray[np.float64]:
        return self._sums(self.rows, vector[self.columns], self.shape[0])

    def transposed_times(self, vector: NDArray[np.float64]) -> NDArray[np.float64]:
        return self._sums(self.columns, vector[self.rows], self.shape[1])

    @staticmethod
    def _sums(groups: NDArray[np.intp], values: NDArray[np.float64], size: int) -> NDArray[np.float64]:
        return np.asarray(np.bincount(groups, weights=values, minlength=size), dtype=np.float64)


@dataclass(frozen=True)
class _Numbered:
    """Every feature of the training sets numbered once, in sorted order, and each set's listings as
    (row, number) pairs: a refit then finds its vocabulary (features in at least MIN_SETS of its sets,
    the wording several authors share) and its presence matrix with array operations, where building
    both from strings took half of each fit. Sorted numbers keep each row's ones in sorted feature order,
    so the sums add in the same order whatever the string hash seed."""

    features: tuple[str, ...]
    in_set: dict[str, NDArray[np.intp]]  # set name -> the numbers of the features it uses
    ones: dict[str, tuple[NDArray[np.intp], NDArray[np.intp]]]  # set name -> (rows, numbers)

    @classmethod
    def of(cls, sets: Sequence[LabelledSet]) -> "_Numbered":
        features = tuple(sorted({feature for labelled in sets for feature in labelled.features}))
        number = {feature: index for index, feature in enumerate(features)}
        in_set = {labelled.name: np.array(sorted(number[f] for f in labelled.features), dtype=np.intp)
                  for labelled in sets}
        ones = {}
        for labelled in sets:
            pairs = np.array([(row, number[f]) for row, example in enumerate(labelled.examples)
                              for f in example.ordered], dtype=np.intp).reshape(-1, 2)
            ones[labelled.name] = (pairs[:, 0], pairs[:, 1])
        return cls(features, in_set, ones)

    def presence(self, sets: Sequence[LabelledSet]) -> tuple[list[str], "_Presence"]:
        spread = np.zeros(len(self.features), dtype=np.intp)
        for labelled in sets:
            spread[self.in_set[labelled.name]] += 1
        shared = spread >= MIN_SETS
        column = np.cumsum(shared) - 1  # a shared feature's column in this refit's matrix
        rows, columns, listings = [], [], 0
        for labelled in sets:
            set_rows, numbers = self.ones[labelled.name]
            kept = shared[numbers]
            rows.append(set_rows[kept] + listings)
            columns.append(column[numbers[kept]])
            listings += len(labelled.examples)
        vocabulary = [self.features[index] for index in np.flatnonzero(shared)]
        matrix = _Presence(np.concatenate([np.zeros(0, np.intp), *rows]),
                           np.concatenate([np.zeros(0, np.intp), *columns]), (listings, len(vocabulary)))
        return vocabulary, matrix


def choose_decision(folds: Sequence[Sequence[Scored]]) -> Decision:
    """The pre-registered rule of the module docstring: the admissible (threshold, least weight)
    catching the most listings that need a person, ties to the higher weight, then threshold."""
    silent = (sum(_caught(fold, math.inf, math.inf) for fold in folds), max(MIN_RISK_WEIGHTS), _silent(folds))
    options = [silent, *(option for weight in MIN_RISK_WEIGHTS for option in _options(folds, weight))]
    _, weight, threshold = max(options)
    return Decision(threshold, weight)


def _options(folds: Sequence[Sequence[Scored]], weight: float) -> list[tuple[int, float, float]]:
    """(caught, weight, threshold) for each admissible threshold at this least risk weight."""
    open_scores = sorted({s.score for fold in folds for s in fold if _open(s, weight)}, reverse=True)
    options = []
    for rank, score in enumerate(open_scores):
        if sum(_added_false_positives(fold, weight, score) for fold in folds) > _allowed(folds):
            break
        lower = open_scores[rank + 1] if rank + 1 < len(open_scores) else score - 1.0
        caught = sum(_caught(fold, weight, score) for fold in folds)
        options.append((caught, weight, round((score + lower) / 2, DECIMALS)))
    return options


def _open(scored: Scored, weight: float) -> bool:
    """Left alone by the rules and holding a risk term of at least this weight: the signal may flag it."""
    return not scored.example.rules_flag and scored.strongest >= weight


def _flags(scored: Scored, weight: float, threshold: float) -> bool:
    return _open(scored, weight) and scored.score >= threshold


def _added_false_positives(fold: Sequence[Scored], weight: float, threshold: float) -> int:
    return sum(not s.example.needs_review and _flags(s, weight, threshold) for s in fold)


def _caught(fold: Sequence[Scored], weight: float, threshold: float) -> int:
    return sum(s.example.needs_review and (s.example.rules_flag or _flags(s, weight, threshold))
               for s in fold)


def _allowed(folds: Sequence[Sequence[Scored]]) -> int:
    """What the rules leave of the pooled budget (heuristic-v16): a harmless listing the rules flag
    already spends it, one the signal adds spends it too."""
    harmless = [s for fold in folds for s in fold if not s.example.needs_review]
    return math.floor(FALSE_POSITIVE_SHARE * len(harmless)) - sum(s.example.rules_flag for s in harmless)


def _silent(folds: Sequence[Sequence[Scored]]) -> float:
    """A threshold above every honest score: the signal flags nothing it was measured on."""
    return round(max((s.score for fold in folds for s in fold), default=0.0) + 1.0, DECIMALS)


def model_json(model: RiskModel) -> str:
    """Sorted and rounded, so the same sets always give the same bytes."""
    data = {"about": ABOUT, "sets": [name for name, _ in TRAINING_SETS], "decisionSets": list(DECISION_SETS),
            "minSets": MIN_SETS, "bias": model.bias, "threshold": model.threshold,
            "minRiskWeight": model.min_risk_weight, "riskTerms": sorted(model.risk_terms),
            "weights": dict(sorted(model.weights.items()))}
    return json.dumps(data, indent=0, sort_keys=True) + "\n"


def reproduces(committed: str, sets: Sequence[LabelledSet]) -> bool:
    """Whether training on these sets gives exactly the committed file's bytes."""
    return model_json(train(sets)) == committed


def main(argv: Sequence[str] | None = None) -> int:
    """Retrain and write the weights, or with --check only compare: either takes over an hour on two cores
    (the refits grow with the training sets times the decision sets, and each with the training sets), so the
    check runs beside the test suite only when asked (TRAINING_CHECK=1 .ci/run)."""
    parser = argparse.ArgumentParser(prog="python -m core.listings.offline.training",
                                     description="Retrain the learned risk signal from the committed sets "
                                                 "(about 75 minutes on two cores).")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless retraining reproduces learned_weights.json byte for byte")
    check = parser.parse_args(argv).check
    if not check:
        WEIGHTS_FILE.write_text(model_json(train(load_sets())), encoding="utf-8")
        return 0
    if reproduces(WEIGHTS_FILE.read_text(encoding="utf-8"), load_sets()):
        print("learned_weights.json is reproduced byte for byte")
        return 0
    print("learned_weights.json is NOT what training gives: rerun python -m core.listings.offline.training")
    return 1


if __name__ == "__main__":
    sys.exit(main())
