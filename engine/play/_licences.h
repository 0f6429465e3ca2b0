/* Written by `python -m claimlaw.engine.play.normal.generate --header` from the table of licences
 * (engine/play/normal/licences.py); do not edit: tests/play/test_licences.py checks it. */
#ifndef CLAIMLAW_LICENCES_H
#define CLAIMLAW_LICENCES_H

#define LIC_ANY_SUIT_ORDER 0  /* cashes his suits in any order: the worst one is ruled */
#define LIC_CONTINUE_SUIT 1  /* having started a suit, continues it until exhausted */
#define LIC_TOP_DOWN 2  /* cashes a suit from the top */
#define LIC_EQUAL_SMALL_ANY 3  /* plays several small cards he sees as equal in any order */
#define LIC_RUFF_LOW 4  /* ruffs as low as possible */
#define LIC_FINESSE_OR_DROP 5  /* takes the losing option of an unstated finesse or drop */
#define LIC_CONCEDE_NOW_OR_END 6  /* loses a conceded trick at once or at the end */
#define LIC_DRAW_TRUMPS_FIRST 7  /* aware of a trump out that his trumps draw on any layout, does not let it score */
#define LIC_UNAWARE_WINNER 20  /* plays as if an outstanding winner were gone */
#define LIC_SAFETY_CHECK_HIGH_TRUMP 21  /* checks with a high trump first, drawing the trump he forgot */

/* the hands the claimer sees (a bit per seat), the tricks the claim concedes and those the
 * opponents have won since the claim */
#define LIC_SEEN_SHIFT 8
#define LIC_CONCEDED_SHIFT 12
#define LIC_LOST_SHIFT 16

#endif
