/* The play core's own solver for short endings, and the floors W's search prunes with.
 *
 * A position is four hands as bit masks (a card at bit suit * 16 + rank, suits numbered spades 0
 * to clubs 3, as DDS and engine/play/bits.py number them), the trump suit (-1: no trump), the
 * leader of the trick in progress (seats N E S W = 0..3) and the cards already played to it.
 *
 * values():  every legal card's value, as DDS's SolveBoard (solutions 3) gives it, without DDS's fixed
 *            cost of about 0.15 ms a call: a fail-soft alpha-beta over North-South's tricks with equal
 *            cards collapsed (touching cards of one hand, no card of another hand nor of the trick in
 *            progress between them), a quick-tricks bound, and tables of bounds at trick starts: one keyed
 *            on the rank-relative layout, one on the lengths and the seats of the top cards the bound
 *            rested on (partition search). A bound holds for every position that matches it, so the
 *            tables are kept across the calls of a question.
 * fewest():  the fewest tricks a side takes when every card of all four hands is played to that end.
 * floor():   the fewest when the side's restricted seats play only best-play cards or cards a licence
 *            could give (a superset of engine/play/search.py's licences, read with full knowledge).
 * worst():   W itself for a claimer who states no line: the same normal cards as
 *            engine/play/search.py's, exactly, and a line giving the count.
 *
 * engine/play/dds.py is the only caller. The test suite checks values() against DDS's, fewest() against
 * the Python cannot-lose search, W with the floors and worst() against exhaustive enumeration and against
 * the Python search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "_licences.h"  /* the licences' flag bits, written from engine/play/normal/licences.py */

typedef uint64_t u64;

#define GTT_BITS 18  /* the floors' table */
#define LANE 0xFFFFULL

typedef struct {
    u64 k[2];
    int16_t leader, trump;  /* the floors keep their rules here too */
    int8_t lo, hi;
    uint8_t used;  /* the question that stored it (0: empty; see ``victim``) */
    int8_t rem;    /* tricks left */
} Entry;

/* Each question (dds.new_question) stamps the entries it stores, 1-255, and reads only its own: every question starts
 * from tables as good as empty, so its answer, budget-bound or not, depends on nothing asked before it (kept across
 * questions, a count left open by the budget changed with the history, as in the benchmark's sequence). */
static uint8_t question = 1;
static unsigned long long work;  /* positions the floors' searches visited (their solver calls too), since last read */
static unsigned long long work_limit;  /* the W search gives up once ``work`` passes this (0: no limit) ... */
static int wgave_up;                   /* ... and then every search unwinds at once, storing nothing */
static PyObject *card_objs[64];  /* the Card object for each code (NULL: none) */

typedef struct {
    u64 hand[4];
    int trump;  /* 0..3, -1: no trump */
    int leader;
    int n;      /* cards played to the trick in progress */
    int tc[4];  /* their codes */
} Pos;

static inline int popcount(u64 x) {  /* SWAR: no dependence on the CPU having a popcount instruction */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline u64 lane_of(u64 m, int x) { return (m >> (16 * x)) & LANE; }

/* the seat offset (0..n-1 from the leader) of the card winning the first n cards of the trick */
static inline int winning(const Pos *p, int n) {
    int best = 0, bc = p->tc[0];
    for (int i = 1; i < n; i++) {
        int c = p->tc[i];
        if ((c >> 4) == (bc >> 4)) {
            if (c > bc) { best = i; bc = c; }
        } else if ((c >> 4) == p->trump) {
            best = i; bc = c;
        }
    }
    return best;
}

/* The rank-relative layout at a trick start: per suit, the seat of each of its cards from the top, two bits a card,
 * left-aligned in 32 bits, and the suit's length in the low four bits (suit 0 in the high half of w[0], suit 1 in its
 * low half, suits 2-3 likewise in w[1]). Ranks no card lies between are one position to the play, so positions
 * reached by different earlier tricks meet. Also the lengths by seat (the partition table's bucket, below); a masked
 * top of each suit's word is a partition pattern. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TOPS_BMI2 1
static int have_bmi2;  /* set at import: the CPU has BMI2's bit gather and scatter (and popcnt) */

/* ``tops`` by bit gather: per suit, which of its cards (lowest first) lie with an odd seat and which with seat 2 or 3,
 * interleaved into two-bit seat codes and shifted so the top card's sits highest. Measured: ``tops`` was a fifth of
 * the time W took on the 7♠ example (its loop visits every card). */
__attribute__((target("bmi2,popcnt"))) static void tops_bmi2(const Pos *p, u64 w[2], u64 *lens) {
    u64 ln = 0;
    w[0] = w[1] = 0;
    for (int x = 0; x < 4; x++) {
        u64 l0 = (p->hand[0] >> (16 * x)) & LANE, l1 = (p->hand[1] >> (16 * x)) & LANE;
        u64 l2 = (p->hand[2] >> (16 * x)) & LANE, l3 = (p->hand[3] >> (16 * x)) & LANE;
        ln |= (u64)__builtin_popcountll(l0) << (16 * x) | (u64)__builtin_popcountll(l1) << (16 * x + 4)
              | (u64)__builtin_popcountll(l2) << (16 * x + 8) | (u64)__builtin_popcountll(l3) << (16 * x + 12);
        u64 all = l0 | l1 | l2 | l3;
        if (!all) continue;
        int n = __builtin_popcountll(all);
        u64 code = _pdep_u64(_pext_u64(l1 | l3, all), 0x55555555ULL) | _pdep_u64(_pext_u64(l2 | l3, all), 0xAAAAAAAAULL);
        code = code << (32 - 2 * n) | (u64)n;
        w[x >> 1] |= code << (32 * (1 - (x & 1)));
    }
    *lens = ln;
}
#endif

static inline void tops(const Pos *p, u64 w[2], u64 *lens) {
#ifdef TOPS_BMI2
    if (have_bmi2) {
        tops_bmi2(p, w, lens);
        return;
    }
#endif
    u64 ln = 0;
    w[0] = w[1] = 0;
    for (int x = 0; x < 4; x++) {
        u64 l0 = (p->hand[0] >> (16 * x)) & LANE, l1 = (p->hand[1] >> (16 * x)) & LANE;
        u64 l2 = (p->hand[2] >> (16 * x)) & LANE, l3 = (p->hand[3] >> (16 * x)) & LANE;
        ln |= (u64)popcount(l0) << (16 * x) | (u64)popcount(l1) << (16 * x + 4) | (u64)popcount(l2) << (16 * x + 8)
              | (u64)popcount(l3) << (16 * x + 12);
        u64 all = l0 | l1 | l2 | l3, code = 0;
        int sh = 30;
        while (all) {
            int r = 63 - __builtin_clzll(all);
            u64 bit = 1ULL << r;
            all ^= bit;
            code |= (u64)((l1 & bit) ? 1 : (l2 & bit) ? 2 : (l3 & bit) ? 3 : 0) << sh;
            sh -= 2;
        }
        code |= (u64)(15 - sh / 2);  /* the length: 13 cards end with sh at 4 */
        w[x >> 1] |= code << (32 * (1 - (x & 1)));
    }
    *lens = ln;
}

/* the layout alone: every table's key */
static inline void rel_key(const Pos *p, u64 key[2]) {
    u64 lens;
    tops(p, key, &lens);
}

/* a 64-bit finalizer (splitmix64's): every bit of the input reaches every bit of the output, the top ones the tables
 * index by included */
static inline u64 mix(u64 h) {
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

/* A layout's hash. The tables index by its top bits, so every bit of the key must reach them: the hash this replaces
 * (multiply, rotate, xor) left the top cards of the second suit of each key word out of the top bits, and on a
 * 7-trick cross-ruff (48063.lin board 16) two thirds of W's stores evicted another position and 20,000 nodes
 * proved nothing. */
static inline u64 hash_of(const u64 key[2], int leader, int trump) {
    return mix(mix(key[0] ^ (u64)(leader * 8 + trump + 1) * 0x9E3779B97F4A7C15ULL) ^ key[1]);
}

/* Tricks the side on lead surely takes by cashing its masters from the leader's hand, side suits first
 * then trumps: a suit counts the leader's cards above every opponent's card of it, if partner has no card
 * of it above the lowest of them (he would have to overtake), and, outside trumps, no more rounds than an
 * opponent holding a trump can follow to (he follows those rounds, so he ruffs none and throws nothing). */
static int quick_tricks(const Pos *p, u64 *rel) {
    int me = p->leader, pa = (me + 2) & 3, o1 = (me + 1) & 3, o2 = (me + 3) & 3;
    u64 opp = p->hand[o1] | p->hand[o2];
    int total = 0;
    for (int x = 0; x < 4; x++) {
        u64 mine = (p->hand[me] >> (16 * x)) & LANE;
        if (!mine) continue;
        u64 theirs = (opp >> (16 * x)) & LANE;
        u64 top = theirs ? (mine & ~((2ULL << (63 - __builtin_clzll(theirs))) - 1)) : mine;
        if (!top) continue;
        u64 part = (p->hand[pa] >> (16 * x)) & LANE;
        int low = __builtin_ctzll(top);
        if (part >> low) continue;
        int q = popcount(top);
        if (x != p->trump && p->trump >= 0) {
            for (int o = 0; o < 2; o++) {
                int s = o ? o2 : o1;
                if ((p->hand[s] >> (16 * p->trump)) & LANE) {
                    int len = popcount((p->hand[s] >> (16 * x)) & LANE);
                    if (len < q) q = len;
                }
            }
        }
        if (q) {  /* the count rests on the q top cards of the suit being the leader's, and on lengths */
            u64 t = top;
            for (int i = popcount(top) - q; i > 0; i--) t &= t - 1;
            *rel |= t << (16 * x);
        }
        total += q;
    }
    return total;
}

/* the cards of every hand but ``turn``'s and of the trick in progress */
static inline u64 others_of(const Pos *p, int turn) {
    u64 o = 0;
    for (int i = 0; i < 4; i++)
        if (i != turn) o |= p->hand[i];
    for (int i = 0; i < p->n; i++) o |= 1ULL << p->tc[i];
    return o;
}

/* one card of each run of equal cards in ``legal``, in the order they are to be tried (W's and the floors' order:
 * see gen_runs) */
static int gen_runs(const Pos *p, int turn, u64 legal, int *out, int *low, int dd_order);

static int gen_moves(const Pos *p, int turn, u64 legal, int *out) {
    return gen_runs(p, turn, legal, out, NULL, 0);
}

/* ranks 2 to ace in each suit's lane (bits 0, 1 and 15 of a lane hold no card) */
#define RANKS 0x7FFC7FFC7FFC7FFCULL

/* the cells reachable from ``g`` by steps up through cells of ``pro`` (an occluded fill: four shifts for any length) */
static inline u64 fill_up(u64 g, u64 pro) {
    g |= pro & (g << 1);
    pro &= pro << 1;
    g |= pro & (g << 2);
    pro &= pro << 2;
    g |= pro & (g << 4);
    pro &= pro << 4;
    return g | (pro & (g << 8));
}

static inline u64 fill_down(u64 g, u64 pro) {
    g |= pro & (g >> 1);
    pro &= pro >> 1;
    g |= pro & (g >> 2);
    pro &= pro >> 2;
    g |= pro & (g >> 4);
    pro &= pro >> 4;
    return g | (pro & (g >> 8));
}

/* the same, and for each card the lowest card of its run (``low``, when not NULL). Runs are found for all four suits
 * at once: a legal card heads its run unless the next card above it still in play (past ranks no one holds) is legal
 * too, and is its run's lowest unless the next one below is. Measured: the card-by-card loop this replaces was an
 * eighth of W's time on positions that stop at the budget. */
static int gen_runs(const Pos *p, int turn, u64 legal, int *out, int *low, int dd_order) {
    u64 others = others_of(p, turn);
    int cards[16], score[16], lows[16], k = 0;
    int wcode = -1, partner_wins = 0;
    if (p->n) {
        int w = winning(p, p->n);
        wcode = p->tc[w];
        partner_wins = ((p->leader + w) & 1) == (turn & 1);
    }
    u64 gaps = ~(legal | others) & RANKS;
    u64 up = fill_up((legal << 1) & gaps, gaps), down = fill_down((legal >> 1) & gaps, gaps);
    u64 heads = legal & ~((legal | down) >> 1), ends = legal & ~((legal | up) << 1);
    if (p->n && !(legal & ~(LANE << (16 * (p->tc[0] >> 4))))) {
        /* following suit, the order the scores below give without a sort: the cheapest card that takes the lead
         * (when the other side holds it with a card of this suit), then from the lowest up */
        u64 over = 0;
        if (!partner_wins && (wcode >> 4) == (p->tc[0] >> 4)) over = heads & ~((2ULL << wcode) - 1);
        for (int pass = 0; pass < 2; pass++) {
            for (u64 h = pass ? heads & ~over : over; h; h &= h - 1) {
                u64 hb = h & -h;
                out[k] = __builtin_ctzll(h);
                if (low != NULL) low[k] = 63 - __builtin_clzll(ends & ((hb << 1) - 1));  /* the run's lowest */
                k++;
            }
        }
        return k;
    }
    for (int x = 0; x < 4; x++) {
        u64 h = lane_of(heads, x), e = lane_of(ends, x);
        while (h) {
            int r = 63 - __builtin_clzll(h), re = 63 - __builtin_clzll(e);
            h &= ~(1ULL << r);
            e &= ~(1ULL << re);
            int code = 16 * x + r;
            int sc;
            if (!p->n && dd_order) {
                u64 opp = lane_of(p->hand[turn ^ 1] | p->hand[turn ^ 3], x), part = lane_of(p->hand[turn ^ 2], x);
                int ruffed = p->trump >= 0 && x != p->trump
                             && ((!lane_of(p->hand[turn ^ 1], x) && lane_of(p->hand[turn ^ 1], p->trump))
                                 || (!lane_of(p->hand[turn ^ 3], x) && lane_of(p->hand[turn ^ 3], p->trump)));
                if (ruffed) sc = r - 32;  /* an opponent can ruff it: last */
                else if (!(opp & ~((2ULL << r) - 1))) sc = 48 + r;  /* above every opponent's card: the top first */
                else if (opp && part > opp) sc = 32 - r;  /* partner holds the suit's top card: low to it */
                else sc = r;  /* then high cards */
            } else if (!p->n) {
                u64 above = (others >> (16 * x)) & LANE & ~((2ULL << r) - 1);
                sc = r + (above ? 0 : 32);  /* the suit's top card first, then high cards */
            } else {
                int beats = ((code >> 4) == (wcode >> 4)) ? code > wcode
                            : ((code >> 4) == p->trump);
                if (partner_wins || !beats) sc = -r;
                else sc = 64 - r;  /* the cheapest card that takes the lead in the trick */
            }
            cards[k] = code;
            lows[k] = 16 * x + re;
            score[k] = sc;
            k++;
        }
    }
    for (int i = 1; i < k; i++) {  /* insertion sort, best first */
        int c = cards[i], s = score[i], l = lows[i], j = i - 1;
        while (j >= 0 && score[j] < s) {
            cards[j + 1] = cards[j];
            score[j + 1] = score[j];
            lows[j + 1] = lows[j];
            j--;
        }
        cards[j + 1] = c;
        score[j + 1] = s;
        lows[j + 1] = l;
    }
    for (int i = 0; i < k; i++) out[i] = cards[i];
    if (low != NULL)
        for (int i = 0; i < k; i++) low[i] = lows[i];
    return k;
}

static inline u64 legal_of(const Pos *p, int turn) {
    u64 h = p->hand[turn];
    if (p->n) {
        u64 follow = h & (LANE << (16 * (p->tc[0] >> 4)));
        if (follow) return follow;
    }
    return h;
}

/* what ``play`` changes besides the hand, so ``unplay`` can put it back */
typedef struct {
    int leader, n, tc[4];
} Undo;

/* plays ``c`` for ``turn``: the seat that won the trick it completes, or -1 */
static inline int play(Pos *p, int turn, int c, Undo *u) {
    u->leader = p->leader;
    u->n = p->n;
    memcpy(u->tc, p->tc, sizeof u->tc);
    p->hand[turn] ^= 1ULL << c;
    p->tc[p->n++] = c;
    if (p->n < 4) return -1;
    int w = (p->leader + winning(p, 4)) & 3;
    p->leader = w;
    p->n = 0;
    return w;
}

static inline void unplay(Pos *p, int turn, int c, const Undo *u) {
    p->hand[turn] ^= 1ULL << c;
    p->leader = u->leader;
    p->n = u->n;
    memcpy(p->tc, u->tc, sizeof p->tc);
}

/* the seat winning the last trick, every hand holding one card (at a trick start) */
static inline int last_trick(Pos *p) {
    for (int i = 0; i < 4; i++) p->tc[i] = __builtin_ctzll(p->hand[(p->leader + i) & 3]);
    return (p->leader + winning(p, 4)) & 3;
}

/* whether a table's entry holds a layout (with the same tag and trump word), a layout's slot, and a store */
static inline int holds(const Entry *e, const u64 key[2], int tag, int tr) {
    return e->used == question && e->leader == tag && e->trump == tr && e->k[0] == key[0] && e->k[1] == key[1];
}

/* Every table here is two-way: a key's hash names a pair of slots, and its entry is the one of the pair holding
 * it, else the one to replace: an empty one or one an earlier question stored, else the one with less left to
 * play (the cheaper to work out again). Direct-mapped, two positions the search keeps returning to could evict
 * each other for ever: measured on random-03, half of W's stores overwrote another position and the search ran
 * three times as long.
 *
 * When neither slot holds this question's, the first is taken, whatever they held: choosing by an earlier question's
 * leftovers put this question's entries in slots that history chose, and a later tie then evicted a different one
 * (found 2026-11-24: random-14 searched 36,237 positions asked first, 36,266 after two other questions). */

static inline int victim(uint8_t used_a, int rem_a, uint8_t used_b, int rem_b) {  /* 0: a, 1: b */
    int old_a = used_a != question, old_b = used_b != question;
    if (old_a || old_b) return !old_a;
    return rem_b < rem_a;
}

static inline Entry *slot(Entry *table, int bits, const u64 key[2], int tag, int tr) {
    u64 i = hash_of(key, tag, tr) >> (64 - bits);
    Entry *a = &table[i], *b = &table[i ^ 1];
    if (holds(a, key, tag, tr)) return a;
    if (holds(b, key, tag, tr)) return b;
    return victim(a->used, a->rem, b->used, b->rem) ? b : a;
}

static inline void put(Entry *e, const u64 key[2], int tag, int tr, int lo, int hi, int rem) {
    e->k[0] = key[0];
    e->k[1] = key[1];
    e->leader = (int16_t)tag;
    e->trump = (int16_t)tr;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->rem = (int8_t)rem;
    e->used = question;
}

/* a bounded minimum's result stored: below ``beta`` it is a line's count (an upper bound), else a floor */
static inline void put_min(Entry *e, const u64 key[2], int tag, int tr, int rem, int best, int beta) {
    int lo = 0, hi = rem;
    if (holds(e, key, tag, tr)) {  /* what an earlier search of this layout proved (the slot may hold another) */
        lo = e->lo;
        hi = e->hi;
    }
    if (best < beta) { if (best < hi) hi = best; }
    else if (best > lo) lo = best;
    put(e, key, tag, tr, lo, hi, rem);
}

/* ---- the double-dummy table: partition search ----
 * A bound found at a trick start rests on fewer facts than the whole layout: the seats holding each suit's top
 * cards down to the lowest card whose rank mattered (it won a trick by beating a card of its suit, was one of a
 * quick trick's masters, or was read from a stored bound), and how many cards each seat holds in each suit. ``ab``
 * returns with each value the cards it rested on (``rel``, a card mask), and the table stores a bound with the
 * owners of those top cards only: the bound holds for every position with the same lengths, leader and trump whose
 * top cards lie the same way (the low cards of a hand map onto the other position's in order, and no trick's winner
 * changes). DDS's "winning ranks" are the same idea (Ginsberg's partition search). Measured against the table keyed on
 * the whole layout: see docs/design.md. */
typedef struct {
    u64 lens;             /* cards per seat per suit, four bits each (bit 16 * suit + 4 * seat) */
    u64 mask[2], pat[2];  /* the relevant top cards' seats (``tops``'s words, masked) */
    int8_t lo, hi;
    uint8_t used;         /* the question that stored it, as ``Entry``'s */
    int8_t lt;            /* leader * 8 + trump + 1 */
    uint32_t stamp;       /* when last stored or read, in the question: the oldest of a bucket is replaced */
} PEntry;

#define PT_BITS 20  /* entries */
#define PT_WAYS 8   /* a layout's lengths, leader and trump name a bucket of 8; any entry of it may match */
static PEntry *pt = NULL;
static uint32_t pclock;  /* restarts with each question, so what is replaced depends on nothing asked before */

/* how many of each suit's cards of ``all``, from the top, reach down to the lowest card of ``rel`` (four bits a suit) */
static inline unsigned rel_counts_in(u64 all, u64 rel) {
    unsigned tv = 0;
    for (int x = 0; x < 4; x++) {
        u64 lane = (all >> (16 * x)) & LANE, r = (rel >> (16 * x)) & lane;
        if (r) tv |= (unsigned)popcount(lane >> __builtin_ctzll(r)) << (4 * x);
    }
    return tv;
}

/* the same for the cards in the hands */
static inline unsigned rel_counts(const Pos *p, u64 rel) {
    return rel_counts_in(p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3], rel);
}

/* the masks of tops' words covering those cards */
static inline void count_masks(unsigned tv, u64 m[2]) {
    m[0] = m[1] = 0;
    for (int x = 0; x < 4; x++) {
        int t = (tv >> (4 * x)) & 15;
        if (t) m[x >> 1] |= ((0xFFFFFFFFULL << (32 - 2 * t)) & 0xFFFFFFFFULL) << (32 * (1 - (x & 1)));
    }
}

/* the counts count_masks took */
static inline unsigned mask_counts(const u64 m[2]) {
    unsigned tv = 0;
    for (int x = 0; x < 4; x++)
        tv |= (unsigned)(popcount((m[x >> 1] >> (32 * (1 - (x & 1)))) & 0xFFFFFFFFULL) / 2) << (4 * x);
    return tv;
}

/* the inverse of rel_counts: the lowest of those cards in each suit, here */
static inline u64 counts_rel(const Pos *p, unsigned tv) {
    u64 all = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3], rel = 0;
    for (int x = 0; x < 4; x++) {
        int t = (tv >> (4 * x)) & 15;
        if (!t) continue;
        u64 lane = (all >> (16 * x)) & LANE;
        for (int i = 1; i < t; i++) lane &= ~(1ULL << (63 - __builtin_clzll(lane)));
        rel |= (1ULL << (63 - __builtin_clzll(lane))) << (16 * x);
    }
    return rel;
}

static inline PEntry *pbucket(u64 lens, int lt) {
    u64 h = mix(lens ^ (u64)lt * 0x9E3779B97F4A7C15ULL);
    return &pt[(h >> (64 - PT_BITS)) & ~(u64)(PT_WAYS - 1)];
}

static inline int pmatch(const PEntry *e, u64 lens, int lt, const u64 w[2]) {
    return e->used == question && e->lens == lens && e->lt == lt
           && (w[0] & e->mask[0]) == e->pat[0] && (w[1] & e->mask[1]) == e->pat[1];
}

/* the bounds a search found, merged into what an entry held */
static inline void bounds(int best, int alpha, int beta, int *lo, int *hi) {
    if (best > alpha && best < beta) *lo = *hi = best;
    else if (best <= alpha) { if (best < *hi) *hi = best; }
    else if (best > *lo) *lo = best;
}

/* stores what a search of this layout found, resting on the top cards ``tv`` counts: into the entry with the same
 * masks and pattern if there is one (the bounds merged), else over the bucket's oldest (or one an earlier question
 * stored) */
static void pstore(u64 lens, int lt, const u64 w[2], unsigned tv, int rem, int best, int alpha, int beta) {
    u64 m[2], pat[2];
    count_masks(tv, m);
    pat[0] = w[0] & m[0];
    pat[1] = w[1] & m[1];
    PEntry *b = pbucket(lens, lt), *e = NULL;
    for (int i = 0; i < PT_WAYS; i++) {
        PEntry *c = &b[i];
        if (c->used == question && c->lens == lens && c->lt == lt && c->mask[0] == m[0] && c->mask[1] == m[1]
            && c->pat[0] == pat[0] && c->pat[1] == pat[1]) {
            e = c;
            break;
        }
    }
    int lo = 0, hi = rem;
    if (e != NULL) {
        lo = e->lo;
        hi = e->hi;
    } else {
        e = &b[0];
        for (int i = 0; i < PT_WAYS; i++) {
            PEntry *c = &b[i];
            if (c->used != question) { e = c; break; }
            if (c->stamp < e->stamp) e = c;
        }
    }
    bounds(best, alpha, beta, &lo, &hi);
    e->lens = lens;
    e->mask[0] = m[0];
    e->mask[1] = m[1];
    e->pat[0] = pat[0];
    e->pat[1] = pat[1];
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->used = question;
    e->lt = (int8_t)lt;
    e->stamp = ++pclock;
}

/* The exact layouts' table, looked at first: one probe finds a layout searched before (W's searches come back to the
 * same layouts again and again, and thousands share one set of lengths, more than a bucket above holds). An entry
 * keeps the counts of top cards its bounds rest on, so a hit passes them on as the partition table's would. */
typedef struct {
    u64 k[2];
    int8_t lo, hi;
    uint8_t used;
    int8_t lt;
    uint16_t tv;  /* rel_counts of what the bounds rest on (of both, when two searches stored them) */
    int8_t rem;
} XEntry;

#define XT_BITS 18  /* 6 MiB: 2^20 was no faster (its reads miss the caches all the same) */
static XEntry *xt = NULL;

static inline int xholds(const XEntry *e, const u64 k[2], int lt) {
    return e->used == question && e->lt == lt && e->k[0] == k[0] && e->k[1] == k[1];
}

static inline XEntry *xslot(const u64 k[2], int lt) {
    u64 i = hash_of(k, lt, 0) >> (64 - XT_BITS);
    XEntry *a = &xt[i], *b = &xt[i ^ 1];
    if (xholds(a, k, lt)) return a;
    if (xholds(b, k, lt)) return b;
    return victim(a->used, a->rem, b->used, b->rem) ? b : a;
}

/* stores into ``x`` (xslot's) what a search of layout ``k`` found, resting on ``tv``; bounds an earlier search of the
 * layout proved are kept, each with its own cards, so the entry keeps the more of each suit's counts */
static void xstore(XEntry *x, const u64 k[2], int lt, unsigned tv, int rem, int best, int alpha, int beta) {
    int lo = 0, hi = rem;
    if (xholds(x, k, lt)) {  /* the slot may since hold another layout */
        lo = x->lo;
        hi = x->hi;
        for (int s = 0; s < 16; s += 4)
            if (((x->tv >> s) & 15) > ((tv >> s) & 15)) tv = (tv & ~(15u << s)) | (x->tv & (15u << s));
    }
    bounds(best, alpha, beta, &lo, &hi);
    x->k[0] = k[0];
    x->k[1] = k[1];
    x->lo = (int8_t)lo;
    x->hi = (int8_t)hi;
    x->used = question;
    x->lt = (int8_t)lt;
    x->tv = (uint16_t)tv;
    x->rem = (int8_t)rem;
}

/* the card a completed trick's winner holds, when it won by rank (over another card of its suit); else 0 */
static inline u64 won_by_rank(const Pos *p) {
    int w = winning(p, 4), wc = p->tc[w];
    for (int i = 0; i < 4; i++)
        if (i != w && (p->tc[i] >> 4) == (wc >> 4)) return 1ULL << wc;
    return 0;
}

/* North-South's tricks from here (the trick in progress included), fail-soft within (alpha, beta); ``rel``: the cards
 * the value rests on (see above) */
static int ab(Pos *p, int alpha, int beta, u64 *rel) {
    *rel = 0;
    work++;
    if (work_limit && work > work_limit) wgave_up = 1;
    if (wgave_up) return 0;  /* the W search has given up: this value is never used */
    int turn = (p->leader + p->n) & 3;
    int rem = popcount(p->hand[turn]);
    if (rem == 0 || beta <= 0) return 0;
    if (alpha >= rem) return rem;
    u64 w[2], lens = 0;
    XEntry *x = NULL;
    int lt = p->leader * 8 + p->trump + 1;
    if (p->n == 0) {
        if (rem == 1) {
            int last = last_trick(p);
            *rel = won_by_rank(p);
            return !(last & 1);
        }
        u64 qr = 0;
        int q = quick_tricks(p, &qr);
        if (!(p->leader & 1) && q >= beta) { *rel = qr; return q; }  /* North-South on lead take at least q */
        if ((p->leader & 1) && rem - q <= alpha) { *rel = qr; return rem - q; }  /* East-West on lead: NS at most rem - q */
        tops(p, w, &lens);
        x = xslot(w, lt);
        if (xholds(x, w, lt)) {
            int v = x->lo >= beta ? x->lo : x->hi <= alpha ? x->hi : x->lo == x->hi ? x->lo : -1;
            if (v >= 0) {
                *rel = counts_rel(p, x->tv);
                return v;
            }
        }
        PEntry *b = pbucket(lens, lt);
        for (int i = 0; i < PT_WAYS; i++) {
            PEntry *e = &b[i];
            if (!pmatch(e, lens, lt, w)) continue;
            int v = e->lo >= beta ? e->lo : e->hi <= alpha ? e->hi : e->lo == e->hi ? e->lo : -1;
            if (v >= 0) {
                e->stamp = ++pclock;
                *rel = counts_rel(p, mask_counts(e->mask));
                return v;
            }
        }
    }
    int moves[16], lows[16];
    int k = gen_runs(p, turn, legal_of(p, turn), moves, lows, 1);
    int maxim = !(turn & 1);
    int best = maxim ? -1 : 99;
    u64 rel_all = 0, rel_best = 0;
    int cut = 0;
    /* the value lies in [0, rem]: a side that reaches an end of it can stop */
    int a = alpha < 0 ? 0 : alpha, b = beta > rem ? rem : beta;
    /* per suit, the code below which a card is known to give what a card searched already gave: that card and this
     * one both lay below every card of its suit the value rested on, so the positions after either are the same to it
     * (DDS's "lowest win") */
    int dull[4] = {0, 16, 32, 48};
    for (int i = 0; i < k; i++) {
        Undo u;
        int c = moves[i], s = c >> 4;
        if (c < dull[s]) continue;
        int wn = play(p, turn, c, &u);
        u64 r = wn >= 0 ? won_by_rank(p) : 0, cr;
        int won = wn >= 0 && !(wn & 1);
        int v = won + ab(p, a - won, b - won, &cr);
        unplay(p, turn, c, &u);
        r |= cr;
        /* the card stands for its run: if its rank mattered, the run's lowest card's does too (in another position
         * the run's cards need not be equal below it) */
        if (lows[i] != c && (r >> c & 1)) r |= 1ULL << lows[i];
        rel_all |= r;
        u64 rs = (r >> (16 * s)) & LANE;
        int floor_s = 16 * s + (rs ? __builtin_ctzll(rs) : 16);
        if (c < floor_s && floor_s > dull[s]) dull[s] = floor_s;
        if (maxim ? v > best : v < best) {
            best = v;
            rel_best = r;
        }
        if (maxim) { if (best > a) a = best; }
        else if (best < b) b = best;
        if (a >= b) { cut = 1; break; }
    }
    /* a cut rests on the move that made it; any other value on every move */
    *rel = cut ? rel_best : rel_all;
    if (p->n == 0 && !wgave_up) {
        unsigned tv = rel_counts(p, *rel);
        pstore(lens, lt, w, tv, rem, best, alpha, beta);
        xstore(x, w, lt, tv, rem, best, alpha, beta);
    }
    return best;
}

/* the exact value by null-window tests from a guess (MTD(f)): each test is a cheap search, and the table
 * carries what one proves to the next */
static int exact(Pos *p, int guess) {
    int lo = -1, hi = 99, g = guess;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        u64 rel;
        g = ab(p, beta - 1, beta, &rel);
        if (g < beta) hi = g;
        else lo = g;
    }
    return g;
}

/* Floors for W, from a bounded minimum: the result is below ``beta`` (then it is the count of a line found, the
 * first one under ``beta``) or at least ``beta`` (then no line goes under it). Bounds at trick starts are kept in
 * their own table, tagged with the rules.
 *
 * With ``all_free``, the fewest tricks ``side`` takes when every card of all four hands is played to that end.
 * Otherwise a tighter floor: the fewest tricks ``side`` takes when every card of its restricted seats is either
 * double-dummy optimal or one a licence could give (a superset of engine/play/search.py's licences with
 * full knowledge: see ``licensed``), and every other card is free. Used only where the claimer sees every
 * card and follows no stated line; the W oracle tests check it never cuts a normal line. The restrictions
 * (continue_suit, draw_trumps_first) only take cards out of that set, so the floor holds with them unread. */
typedef struct {
    int side;        /* 0: North-South, 1: East-West */
    int restricted;  /* bit per seat */
    int all_masters; /* any master may be led, not only the top one (equal_small_any, or top_down off) */
    int concedes;    /* a loser may be led (concede_now_or_end with tricks conceded) */
    int ruff_low;    /* ruff_low: void, he ruffs with the lowest trump that wins */
    int finesse;     /* finesse_or_drop, no 70E2 order settling it: third hand may play for the guess */
    int suit_order;  /* any_suit_order: he may cash any suit he holds a master in, or lead low to partner's */
    int all_free;    /* no restriction at all: every card of every seat (the fewest over every play) */
} Rules;

static Entry *gtt = NULL;
static long effort;   /* positions the floor's search may still visit (negative: no limit) */
static int gave_up;   /* it ran out: nothing it found since is stored, and no floor is claimed */

static inline u64 top_bit(u64 l) { return l ? 1ULL << (63 - __builtin_clzll(l)) : 0; }

/* the cards of ``lane`` above every card of ``theirs`` (one suit) */
static inline u64 above_all(u64 lane, u64 theirs) {
    return theirs ? lane & ~((top_bit(theirs) << 1) - 1) : lane;
}

/* normal/licensing.py ``crashes`` on top ranks: cashing ``masters`` (the seat's masters of a suit, ``mine`` all its cards there)
 * from the top fells a master of partner's ``part`` once his losers are gone, and the two hands take fewer tricks in
 * the suit */
static int crashes(u64 masters, u64 mine, u64 part, u64 theirs) {
    if (!masters || !part) return 0;
    /* partner follows with his losers first (``low`` rounds), then his masters */
    int low = theirs ? popcount(part & ((top_bit(theirs) << 1) - 1)) : 0;
    int a = popcount(masters) - low, b = popcount(part) - low, lm = popcount(mine) - low;
    if (b == 0 || a < 1) return 0;
    int before = a + b < (lm > b ? lm : b) ? a + b : (lm > b ? lm : b);
    int m2 = (lm - 1 > b - 1 ? lm - 1 : b - 1);
    int after = 1 + (a + b - 2 < m2 ? a + b - 2 : m2);
    return after < before;
}

/* third hand's finesse cards (one suit): each card of ``over`` with exactly one of ``theirs`` above it that a higher
 * card of ``follow`` beats, and then that top card too */
static u64 finesse_cards(u64 over, u64 theirs, u64 follow) {
    u64 out = 0;
    for (u64 o = over; o; o &= o - 1) {
        u64 c = o & -o, higher = theirs & ~((c << 1) - 1);
        if (higher && !(higher & (higher - 1)) && top_bit(follow) > higher) out |= c | top_bit(follow);
    }
    return out;
}

/* normal/licensing.py ``drop_sure``: the side's cards above ``m`` (lanes ``a``, the hand to move, and ``b``) win r rounds (at most
 * the longer holding); the opponents' cards out (``theirs``) are at most r, or, on lead (``mid`` 0) with two or more
 * tops and a second card in ``a``, r + 1 */
static int drop_sure(u64 a, u64 b, u64 theirs, u64 m, int mid) {
    u64 above = ~((m << 1) - 1);
    int tops = popcount(a & above) + popcount(b & above), la = popcount(a), lb = popcount(b);
    int longer = la > lb ? la : lb, r = tops < longer ? tops : longer, out = popcount(theirs);
    return out <= r || (!mid && out == r + 1 && tops >= 2 && la >= 2);
}

/* normal/licensing.py ``finesse_card``: third hand's finesse card against the one card M an opponent may hold above it (``theirs``;
 * M hidden: not one of ``vis``, the opponents' cards he sees in dummy), the highest of ``over`` (his cards beating the
 * trick so far) with M alone above it and a card of ``follow`` above M, unless the top cards drop M (``part``: the
 * leader's cards of the suit when he sees them, else 0); that card and his top card (the drop), or none; M into ``m`` */
static u64 finesse_card(u64 over, u64 theirs, u64 vis, u64 follow, u64 part, u64 *m) {
    u64 best = 0;
    *m = 0;
    for (u64 o = over; o; o &= o - 1) {
        u64 c = o & -o, higher = theirs & ~((c << 1) - 1);
        if (higher && !(higher & (higher - 1)) && !(higher & vis) && top_bit(follow) > higher) { best = c; *m = higher; }
    }
    return best && !drop_sure(follow, part, theirs, *m, 1) ? best | top_bit(follow) : 0;
}

/* the lowest of ``trumps`` (a lane) above every trump played to the trick so far, as a lane bit (0: none) */
static u64 lowest_winning_ruff(const Pos *p, u64 trumps) {
    int top = 0;
    for (int i = 0; i < p->n; i++)
        if ((p->tc[i] >> 4) == p->trump && (p->tc[i] & 15) > top) top = p->tc[i] & 15;
    u64 over = trumps & ~((2ULL << top) - 1);
    return over & -over;
}

/* the cards of the seat to move a licence could give, as a mask (a superset: see ``Rules``) */
static u64 licensed(const Pos *p, int turn, const Rules *r) {
    int pa = (turn + 2) & 3;
    u64 opp = p->hand[(turn + 1) & 3] | p->hand[(turn + 3) & 3];
    u64 h = p->hand[turn], out = 0;
    if (p->n == 0) {
        int opp_trumps = p->trump >= 0 && lane_of(opp, p->trump);
        for (int x = 0; x < 4; x++) {
            u64 mine = lane_of(h, x);
            if (!mine) continue;
            u64 theirs = lane_of(opp, x), part = lane_of(p->hand[pa], x);
            u64 masters = above_all(mine, theirs);
            u64 low = mine & -mine;
            int partner_master = part && top_bit(part) > top_bit(theirs);
            if (masters && part && (part & -part) > top_bit(mine)) masters = 0;  /* partner would overtake */
            int crash = crashes(masters, mine, part, theirs);
            if (crash) masters = 0;  /* withheld, and nothing given in its place */
            /* an aware claimer with a trump out draws trumps first; with none out he leads no trump to no end */
            if (r->suit_order && (!opp_trumps || x == p->trump) && !(x == p->trump && !opp_trumps)) {
                if (masters) out |= (r->all_masters ? masters : top_bit(mine)) << (16 * x);
                else if (!crash && partner_master && !(low > top_bit(theirs) && (part & -part) > low))
                    out |= low << (16 * x);  /* low toward partner's master */
            }
            if (r->finesse && partner_master) out |= low << (16 * x);  /* toward a tenace (a superset) */
            if (r->concedes && top_bit(mine | part) < top_bit(theirs))  /* a loser led (a trump from the top) */
                out |= (x == p->trump ? top_bit(mine) : low) << (16 * x);
            if (r->concedes && x == p->trump && !opp_trumps && !part)  /* his top trump before the loser */
                out |= top_bit(mine) << (16 * x);
        }
        return out;
    }
    int led = p->tc[0] >> 4;
    u64 follow = lane_of(h, led);
    int wcode = p->tc[winning(p, p->n)];
    if (follow) {
        u64 lowest = follow & -follow;
        if ((wcode >> 4) != led) return lowest << (16 * led);  /* ruffed: he cannot beat it */
        u64 over = follow & ~((2ULL << (wcode & 15)) - 1);  /* the cards that beat the trick so far */
        /* the lowest, or any card that beats the trick so far: the claimer's view (engine/play/normal/view.py) does not
         * place the hidden cards, so which of them he sees as the cheapest sure winner is not read here */
        out = lowest | over;
        if (r->finesse && p->n == 2 && ((p->leader + 2) & 3) == turn)
            out |= finesse_cards(over, lane_of(opp, led), follow);
        return out << (16 * led);
    }
    u64 trumps = p->trump >= 0 ? lane_of(h, p->trump) : 0;
    /* the low ruff and the discards both: whether he sees partner winning, or an overruff coming, is the view's */
    if (trumps && led != p->trump && r->ruff_low) out |= lowest_winning_ruff(p, trumps) << (16 * p->trump);
    u64 side_cards = h | p->hand[(turn + 2) & 3];
    for (int x = 0; x < 4; x++) {
        u64 l = lane_of(h, x);
        if (!l || x == p->trump) continue;
        u64 theirs = lane_of(opp, x), ours = lane_of(side_cards, x);
        if (top_bit(ours) < top_bit(theirs)) out |= (l & -l) << (16 * x);  /* the lowest of a suit it has no master in */
    }
    return out;
}

/* every card of ``m`` together with the cards of ``legal`` equal to one of them (no card of ``others`` between) */
static u64 with_equals(u64 m, u64 legal, u64 others) {
    u64 out = 0;
    for (int x = 0; x < 4; x++) {
        u64 mm = lane_of(m, x) & lane_of(legal, x);
        if (!mm) continue;
        u64 l = lane_of(legal, x), o = lane_of(others, x), run = 0;
        int hit = 0, prev = -1;
        while (l) {  /* the suit's legal cards from the top, in runs no card of ``others`` lies inside */
            int b = 63 - __builtin_clzll(l);
            l ^= 1ULL << b;
            if (prev >= 0 && ((o >> (b + 1)) & ((1ULL << (prev - b - 1)) - 1))) {
                if (hit) out |= run << (16 * x);
                run = 0;
                hit = 0;
            }
            run |= 1ULL << b;
            hit |= (int)(mm >> b & 1);
            prev = b;
        }
        if (hit) out |= run << (16 * x);
    }
    return out;
}

/* normal/licensing.py ``seen_equal`` for a viewer unaware of the cards ``blind``: the cards of ``legal`` he may play for one
 * of ``m``, equal to it as he sees it (no card of ``others`` he knows of between: view.py ``perceived_equal``), and
 * where a card he does not know of lies between them, only small ones (none above nine) */
static u64 seen_equals(u64 m, u64 legal, u64 others, u64 blind) {
    if (!blind) return with_equals(m, legal, others);
    u64 out = 0;
    for (u64 o = m & legal; o; o &= o - 1) {
        int code = __builtin_ctzll(o), x = code >> 4, rk = code & 15;
        u64 run = lane_of(with_equals(o & -o, legal, others & ~blind), x), bl = lane_of(blind, x);
        for (; run; run &= run - 1) {
            int er = __builtin_ctzll(run), lo = er < rk ? er : rk, hi = er < rk ? rk : er;
            if (!(bl & ((1ULL << hi) - 1) & ~((2ULL << lo) - 1)) || hi <= 9) out |= (run & -run) << (16 * x);
        }
    }
    return out;
}

static int floor_rules(Pos *p, const Rules *r, int beta);

/* the cards the results of run_test rest on since last cleared (as ``ab``'s ``rel``: see best_entry) */
static u64 brel;

/* null-window test of run ``c`` for the seat to move: does its side's value after it reach ``t`` (tricks from here)?
 * Narrows the run's bounds [*lo, *hi] in the mover's terms with the fail-soft result. */
static inline void run_test(const Pos *p, int turn, int c, int t, int *lo, int *hi) {
    int rem = popcount(p->hand[turn]);
    Pos q = *p;
    Undo u;
    int w = play(&q, turn, c, &u);
    int won = w >= 0 && !(w & 1);
    u64 rel;
    if (w >= 0) brel |= won_by_rank(&q);
    if (!(turn & 1)) {  /* North-South's value after it */
        int v = won + ab(&q, t - 1 - won, t - won, &rel);
        if (v >= t) *lo = v;
        else *hi = v;
    } else {  /* East-West's: North-South held to rem - t */
        int b = rem - t + 1;
        int v = won + ab(&q, b - 1 - won, b - won, &rel);
        if (v < b) *lo = rem - v;
        else *hi = rem - v;
    }
    brel |= rel;
}

/* Is ``c`` best play here, ``dd`` being North-South's double-dummy tricks? One null-window test of the position
 * after it: does it keep the mover's side at its double-dummy tricks? */
static int optimal(const Pos *p, int turn, int c, int dd) {
    int rem = popcount(p->hand[turn]), t = (turn & 1) ? rem - dd : dd, lo = 0, hi = rem;
    run_test(p, turn, c, t, &lo, &hi);
    return lo >= t;
}

/* The best-play runs among ``runs`` (the moves of the seat to move), a bit each in ``*best``, and the mover's side's
 * double-dummy tricks from here: exact (``*exact`` 1) when below ``target``, else at least ``target`` (exact only if
 * that came for free). Each run's value after it is kept as bounds, narrowed by null-window tests from ``target`` up
 * or down; the value here is the largest of them. Once it is known to reach ``target`` and a single run can reach it,
 * that run is all of best play and no test proves how high the value goes. Measured on W's searches (2026-11-24):
 * an exact value first and then a test per run took ~1.5x the solver's positions; most W nodes ask below the value
 * here, where one run alone reaches it. */
static int best_runs(const Pos *p, int turn, const int *runs, int k, int target, int guess, unsigned *best,
                     int *exact) {
    int rem = popcount(p->hand[turn]);
    int lo[16], hi[16];
    for (int i = 0; i < k; i++) { lo[i] = 0; hi[i] = rem; }
    int t = guess > target ? guess : target, m, sure = 1;
    if (t < 1) t = 1;
    for (;;) {
        int L = 0, H = 0, alive = 0;
        for (int i = 0; i < k; i++) {
            if (lo[i] > L) L = lo[i];
            if (hi[i] > H) H = hi[i];
        }
        if (L >= H || wgave_up) { m = L; break; }
        for (int i = 0; i < k; i++) alive += hi[i] >= L;
        if (L >= target && alive == 1) { m = L; sure = 0; break; }  /* one run alone reaches the value */
        if (t <= L) t = L + 1;
        if (t > H) t = H;
        for (int i = 0; i < k; i++)
            if (lo[i] < t && hi[i] >= t) run_test(p, turn, runs[i], t, &lo[i], &hi[i]);
        int reached = 0;
        for (int i = 0; i < k; i++) reached |= lo[i] >= t;
        t = reached ? t + 1 : t - 1;
    }
    *best = 0;
    for (int i = 0; i < k; i++) {
        if (sure && hi[i] >= m && lo[i] < m && !wgave_up) run_test(p, turn, runs[i], m, &lo[i], &hi[i]);
        if (lo[i] >= m) *best |= 1u << i;
    }
    *exact = sure;
    return m;
}

static int floor_rules(Pos *p, const Rules *r, int beta) {
    int turn = (p->leader + p->n) & 3;
    int rem = popcount(p->hand[turn]);
    int side = r->side;
    if (rem == 0 || beta <= 0) return 0;
    work++;
    if (effort >= 0 && --effort < 0) gave_up = 1;
    if (gave_up) return 0;  /* as if a line under the bound were found: the search unwinds at once */
    Entry *e = NULL;
    u64 key[2];
    int tag = p->leader + 4 * side + 8 * r->restricted;
    int tr = (p->trump + 1 + 8 * (r->all_masters + 2 * r->concedes + 4 * r->ruff_low + 8 * r->finesse
                                               + 16 * r->suit_order + 32 * r->all_free));
    if (p->n == 0) {
        if (rem == 1) return (last_trick(p) & 1) == side;
        rel_key(p, key);
        e = slot(gtt, GTT_BITS, key, tag, tr);
        if (holds(e, key, tag, tr)) {
            if (e->lo >= beta) return e->lo;
            if (e->hi < beta) return e->hi;
        }
    }
    int moves[16];
    u64 legal = legal_of(p, turn);
    int k = gen_moves(p, turn, legal, moves);
    u64 ok = ~0ULL;
    int dd = -1;
    if (r->all_free || (turn & 1) != side) {
        ok = ~0ULL;  /* any card */
    } else if (!(r->restricted >> turn & 1)) {
        ok = 0;  /* a seat of the side the model does not restrict plays best play only */
    } else {
        ok = with_equals(licensed(p, turn, r), legal, others_of(p, turn));
    }
    int best = 99;
    int mine = (turn & 1) == side;
    for (int j = 0; j < k && best >= beta; j++) {
        int c = moves[mine ? k - 1 - j : j];  /* the side's worst cards first, the other side's best first */
        if (!(ok >> c & 1)) {
            if (dd < 0) {
                Pos q = *p;
                dd = exact(&q, rem / 2);  /* North-South's tricks with best play: the optimal cards keep it */
            }
            if (!optimal(p, turn, c, dd)) continue;  /* neither licensed nor best play: not normal */
        }
        Undo u;
        int w = play(p, turn, c, &u);
        int won = w >= 0 && (w & 1) == side;
        int v = won + floor_rules(p, r, beta - won);
        unplay(p, turn, c, &u);
        if (v < best) best = v;
    }
    if (e != NULL && !gave_up) put_min(e, key, tag, tr, rem, best, beta);
    return best;
}

/* ---- W itself, for a claimer who states no line ----------------------------------------------------------
 *
 * The exact counterpart of engine/play/search.py's ``reach`` for that case: the fewest tricks ``side`` takes
 * when each card of its restricted seats is a normal one (best play, ties narrowed as normal/ties.py ``ties`` does,
 * or a card normal/licensing.py ``licences`` gives), each card of its other seats best play (ties narrowed), and each card
 * of the opponents any legal card. Besides the cards, the search carries what the licences read of the past:
 * the suit the side led last (``continue_suit``) and the suits each seat has shown out of (the guess licence).
 * The Python search stays the oracle: the test suite checks the two agree, and every card of the line found
 * here is checked against ``Searcher.moves`` as the witness is written. */
typedef struct {
    int side, restricted;
    int suit_order, continue_suit, top_down, equal_small, ruff_low, guess, concedes;
    int conceded;  /* tricks the claim concedes (the guess licence reads whether the claim needs a guess) */
    /* the view the seat to move reads (engine/play/normal/view.py), as seat bits: the hands seen (the claimer: a declarer
     * his two, a defender his own and dummy), the hidden ones (the rest), and the hands whose cards an opponent may
     * hold as it sees it (the hidden ones and the opponents' it sees: View.against). ``wrules`` gives the claimer's;
     * ``seat_rules`` the one a seat reads */
    int seen, hid, agst;
    /* a defender's partner reads his own view (view.py ``viewer``): what the claimer sees and his own hand, the
     * claimer's faced (Law 68C); ``pseat`` -1 for a declarer's claim, whose two hands read his view. (Partner knows of
     * every card out; the claimer's unawareness, 70C, never reaches this search: it answers only for a claimer aware
     * of every card.) */
    int pseat, pseen, phid, pagst;
    int cseen, cagst;  /* the claimer's ``seen`` and ``agst``, whoever is to move: what he believes of his claim */
    int draw;  /* draw_trumps_first: a restriction on lead (``draws_first``) */
    /* a claimer found unaware of cards still out (70C; view.py): ``unaware`` all of them (the key and the runs of equal
     * cards read them, whoever is to move); ``blind`` those the viewer of the seat to move does not know of (the
     * claimer's: none for a defender's partner, who knows of every card out, view.py ``unaware``); ``vblind`` those
     * of them in hands he does not see, which his view leaves out (View.hidden); ``cblind`` the claimer's ``vblind``
     * (``sure_tricks``). Cards never change hands, so each is set once a call (``unaware_view``) */
    u64 unaware, blind, vblind, cblind;
    int unaware_winner, safety;  /* the switches that act only on such a card (licences.py UNAWARE_ONLY) */
} WRules;

typedef struct {
    Pos p;
    int last;   /* the suit the side led last (-1: none) */
    int voids;  /* bit 4 * seat + suit: that seat has shown out of the suit */
    int lost;   /* tricks the opponents have won since the claim (normal/node.py ``Node.lost``) */
} WPos;

typedef struct {
    u64 k[3];
    uint32_t tag;
    int8_t lo, rem;  /* a floor: no normal line from here takes fewer than lo; tricks left */
    uint8_t used;    /* the question that stored it (0: empty) */
} WEntry;

#define WTT_BITS 20
static WEntry *wtt = NULL;


/* the cards of the hands of seat bits ``seats`` */
static inline u64 hands_in(const Pos *p, int seats) {
    return (seats & 1 ? p->hand[0] : 0) | (seats & 2 ? p->hand[1] : 0) | (seats & 4 ? p->hand[2] : 0)
           | (seats & 8 ? p->hand[3] : 0);
}

/* the rules ``seat`` reads: ``r`` itself, or for a defender's partner a copy in ``own`` with his view */
static inline const WRules *seat_rules(const WRules *r, int seat, WRules *own) {
    if (seat != r->pseat) return r;
    *own = *r;
    own->seen = r->pseen;
    own->hid = r->phid;
    own->agst = r->pagst;
    own->blind = own->vblind = 0;  /* partner knows of every card out */
    return own;
}

/* View.against: the cards an opponent may hold as he sees it (every hidden card, and the opponents' cards he sees) */
static inline u64 against(const Pos *p, const WRules *r) { return hands_in(p, r->agst) & ~r->vblind; }

/* normal/view.py ``side_has_master``: the side holds a card of suit ``x`` above every card an opponent may hold, as he sees it */
static inline int side_master(const Pos *p, const WRules *r, int x) {
    u64 ours = lane_of(p->hand[r->side] | p->hand[r->side ^ 2], x);
    return ours && top_bit(ours) > top_bit(lane_of(against(p, r), x));
}

/* the cards of ``h`` he sees as masters: above every card of their suit an opponent may hold, as he sees it */
static inline u64 masters_in(const Pos *p, const WRules *r, u64 h) {
    u64 opp = against(p, r), out = 0;
    for (int x = 0; x < 4; x++) out |= above_all(lane_of(h, x), lane_of(opp, x)) << (16 * x);
    return out;
}

/* normal/licensing.py ``tenace_card``: the highest opponent's card that is the only one above a card of partner's, partner holding
 * a card above it (a lane bit; 0: no tenace) */
static u64 tenace_card(u64 part, u64 theirs) {
    u64 best = 0;
    for (u64 c = part; c; c &= c - 1) {
        u64 b = c & -c, higher = theirs & ~((b << 1) - 1);
        if (higher && !(higher & (higher - 1)) && top_bit(part) > higher && higher > best) best = higher;
    }
    return best;
}

/* normal/licensing.py ``real_guess``: a tenace of partner's, the opponents hold another card of the suit besides the one inside it
 * (with that card alone out, second hand plays it or shows out: nothing to guess), and the top cards do not drop it:
 * the card inside the tenace, as a lane bit (0: no guess) */
static inline u64 real_guess(u64 mine, u64 part, u64 theirs) {
    if (!(theirs & (theirs - 1))) return 0;
    u64 m = tenace_card(part, theirs);
    return m && !drop_sure(mine, part, theirs, m, 0) ? m : 0;
}

static inline int shown_out(int voids, int seat_a, int seat_b, int x) {
    return (voids >> (4 * seat_a + x) & 1) || (voids >> (4 * seat_b + x) & 1);
}

/* normal/licensing.py ``strands``: crossing to partner with ``low`` of suit ``x`` leaves a master of the leader's with no way
 * back to it (unless ``blocking_only``), or leaves his masters of a suit blocking partner's longer run of masters
 * (partner holding more masters there than he holds cards) */
static int strands(const Pos *p, const WRules *r, int turn, int x, u64 low, int blocking_only) {
    u64 opp = against(p, r);  /* as he sees it (a card he is unaware of is no card of theirs) */
    u64 mine = p->hand[turn] & ~(low << (16 * x)), part = p->hand[(turn + 2) & 3];
    u64 pm = above_all(lane_of(part, x), lane_of(opp, x));
    part &= ~((pm & -pm) << (16 * x));  /* partner wins with his lowest master */
    int holds_master = 0, entry = 0;
    int trumps = p->trump >= 0 && lane_of(mine, p->trump);
    for (int y = 0; y < 4; y++) {
        u64 ml = lane_of(mine, y), pl = lane_of(part, y), tl = lane_of(opp, y);
        u64 mm = above_all(ml, tl);
        if (mm) holds_master = 1;
        if (pl && mm && top_bit(mm) > (pl & -pl)) entry = 1;
        if (pl && !ml && trumps && y != p->trump) entry = 1;
        if (ml && mm == ml && (ml & -ml) > top_bit(pl) && popcount(above_all(pl, tl)) > popcount(ml)) return 1;
    }
    return holds_master && !entry && !blocking_only;
}

/* ---- the claimer's view (engine/play/normal/view.py): he sees his own hand and dummy
 * (``WRules.seen``); the cards of the other hands are hidden (he knows which are out, not who holds them: a defender
 * cannot tell partner's from declarer's) and he reads their show-outs; a card he is unaware of (70C) is not among
 * them (``WRules.vblind``) ---- */

/* the cards of suit ``x`` an opponent may hold as he sees it (View.against) */
static inline u64 opp_lane(const Pos *p, const WRules *r, int x) { return lane_of(against(p, r), x); }

/* the hidden cards of suit ``x`` (View.hidden_in) */
static inline u64 hid_lane(const Pos *p, const WRules *r, int x) {
    return lane_of(hands_in(p, r->hid) & ~r->vblind, x);
}

static inline int voided(const WPos *w, int s, int x) { return w->voids >> (4 * s + x) & 1; }

/* View.may_hold: a hand he sees holds a card of ``x`` above ``above``; a hidden hand has not shown out of ``x`` and
 * some hidden card of it ranks above ``above`` */
static inline int may_hold(const WPos *w, const WRules *r, int s, int x, int above) {
    if (r->seen >> s & 1) return (lane_of(w->p.hand[s], x) >> (above + 1)) != 0;
    return !voided(w, s, x) && (hid_lane(&w->p, r, x) >> (above + 1)) != 0;
}

/* View.must_hold: a hand he sees that holds one; a hidden hand that may hold one while every other hidden hand has
 * shown out of ``x`` */
static inline int must_hold(const WPos *w, const WRules *r, int s, int x, int above) {
    if (!may_hold(w, r, s, x, above)) return 0;
    if (r->seen >> s & 1) return 1;
    for (int t = 0; t < 4; t++)
        if (t != s && (r->hid >> t & 1) && !voided(w, t, x)) return 0;
    return 1;
}

/* View.known_void: a hand he sees without a card of ``x``; a hidden hand that has shown out of it, or no hidden card
 * of it */
static inline int known_void(const WPos *w, const WRules *r, int s, int x) {
    if (r->seen >> s & 1) return !lane_of(w->p.hand[s], x);
    return voided(w, s, x) || !hid_lane(&w->p, r, x);
}

/* normal/licensing.py ``wins_trick``: as he sees it, ``code`` (beating the trick so far) surely wins it (``surely``: no opponent still
 * to play may beat it) or may win it (``!surely``: no opponent still to play is known to beat it) */
static int v_wins(const WPos *w, const WRules *r, int turn, int code, int surely) {
    const Pos *p = &w->p;
    int led = p->tc[0] >> 4, x = code >> 4, rk = code & 15;
    for (int j = p->n + 1; j < 4; j++) {
        int s = (p->leader + j) & 3;
        if ((s & 1) == (turn & 1)) continue;
        if (!known_void(w, r, s, led)) {
            if (x == led && (surely ? may_hold(w, r, s, led, rk) : must_hold(w, r, s, led, rk))) return 0;
        } else if (p->trump >= 0) {
            int above = x == p->trump ? rk : 0;  /* a ruff beats a side-suit card; a higher trump overruffs */
            if (surely ? may_hold(w, r, s, p->trump, above) : must_hold(w, r, s, p->trump, above)) return 0;
        }
    }
    return 1;
}

/* mid-trick: partner's card wins the trick so far and surely wins it, as he sees it */
static inline int v_partner_sure(const WPos *w, const WRules *r, int turn) {
    const Pos *p = &w->p;
    int wi = winning(p, p->n);
    return ((p->leader + wi) & 3) == ((turn + 2) & 3) && v_wins(w, r, turn, p->tc[wi], 1);
}

static int way_to(const Pos *p, const WRules *r, u64 mine, u64 part);
static int suit_tops(u64 a, u64 b, u64 theirs);

/* normal/licensing.py ``unblock_card``: partner's sure winner (``wcode``, partner ``pa``, a hand he sees) is his last card of the suit
 * led, this hand holds a master there, and partner has no entry back (a card under one of this hand's masters in
 * another suit, or a suit this hand can ruff): this hand's cheapest card beating partner's, as a lane bit of the suit
 * led, when it keeps a master besides it (0: none) */
static u64 unblock_card(const Pos *p, const WRules *r, int turn, int pa, int wcode) {
    int led = p->tc[0] >> 4;
    u64 follow = lane_of(p->hand[turn], led);
    if (r->pseat >= 0 || !(r->seen >> pa & 1)) return 0;  /* declarer's claim only (a defender's partner: 70D2) */
    if ((wcode >> 4) != led || lane_of(p->hand[pa], led) || !above_all(follow, opp_lane(p, r, led))) return 0;
    int trumps = p->trump >= 0 && lane_of(p->hand[turn], p->trump);
    for (int y = 0; y < 4; y++) {
        u64 pl = lane_of(p->hand[pa], y), ml = lane_of(p->hand[turn], y);
        if (!pl) continue;
        u64 mm = above_all(ml, opp_lane(p, r, y));
        if (mm && top_bit(mm) > (pl & -pl)) return 0;
        if (!ml && trumps && y != p->trump) return 0;
    }
    u64 over = follow & ~((2ULL << (wcode & 15)) - 1);
    over &= -over;
    /* overtaking with his only winner unblocks nothing: the lead would stay with no winner */
    return above_all(follow, opp_lane(p, r, led)) & ~over ? over : 0;
}

/* normal/licensing.py ``unblock_gains``: overtaking with ``over`` (a lane bit of the suit led, from ``unblock_card``) frees more tricks
 * of his (his other cards there, top and length winners: ``suit_tops``) than it strands of partner's winners outside
 * the suit (``strands_partner``: none where this hand keeps a way to them, ``way_to``) */
static int unblock_gains(const Pos *p, const WRules *r, int turn, u64 over) {
    int led = p->tc[0] >> 4, pa = (turn + 2) & 3;
    u64 follow = lane_of(p->hand[turn], led);
    u64 rest = p->hand[turn] & ~(over << (16 * led)), wins = masters_in(p, r, p->hand[pa]) & ~(LANE << (16 * led));
    int stranded = wins && !way_to(p, r, rest, p->hand[pa]) ? popcount(wins) : 0;
    return stranded < suit_tops(follow & ~over, 0, opp_lane(p, r, led));
}

/* normal/licensing.py ``forcing_card``: following to a trick he cannot win, one opponent still to play, the other known void in the
 * suit led: his cheapest card beating the trick so far (``wcode``) and every spot card (nine or lower) an opponent may
 * hold there, as a lane bit of the suit led (0: none such, or no spot card out) */
static u64 forcing_card(const WPos *w, const WRules *r, int turn, u64 follow, int wcode) {
    const Pos *p = &w->p;
    int led = p->tc[0] >> 4, s = -1;
    if ((wcode >> 4) != led) return 0;
    for (int j = p->n + 1; j < 4; j++) {
        int t = (p->leader + j) & 3;
        if ((t & 1) != (turn & 1)) {
            if (s >= 0) return 0;
            s = t;
        }
    }
    if (s < 0 || !known_void(w, r, s ^ 2, led)) return 0;
    u64 spots = opp_lane(p, r, led) & ((1ULL << 10) - 1);
    if (!spots) return 0;
    u64 need = top_bit(spots), wb = 1ULL << (wcode & 15);
    if (wb > need) need = wb;
    u64 over = follow & ~((need << 1) - 1);
    return over & -over;
}

/* normal/licensing.py ``ruffed_master``: following to a trick an opponent's card of the suit led (``wcode``, seat ``wseat``) wins, an
 * opponent still to play known to ruff whatever he plays: his cheapest card above every card of the suit an
 * opponent may hold, as a lane bit of the suit led (0: none) */
static u64 ruffed_master(const Pos *p, const WRules *r, int turn, u64 follow, int wseat, int wcode) {
    int led = p->tc[0] >> 4;
    if (p->trump < 0 || (wseat & 1) == (turn & 1) || (wcode >> 4) != led) return 0;
    u64 m = above_all(follow & ~((2ULL << (wcode & 15)) - 1), opp_lane(p, r, led));
    return m & -m;
}

/* normal/licensing.py ``cover_card``: second hand to an opponent's card he cannot beat for sure, his cheapest card above it
 * where exactly one card out, as he sees it, is above his lowest card of the suit (the cover promotes it); none where
 * the opponent still to play is known void in the suit led */
static u64 cover_card(const WPos *w, const WRules *r, int turn, u64 follow, int wcode) {
    const Pos *p = &w->p;
    int led = p->tc[0] >> 4;
    if (p->n != 1 || (wcode >> 4) != led) return 0;
    u64 low = follow & -follow, cover = follow & ~((2ULL << (wcode & 15)) - 1);
    cover &= -cover;
    if (!cover || cover == low || known_void(w, r, (turn + 1) & 3, led)) return 0;
    return popcount(opp_lane(p, r, led) & ~((low << 1) - 1)) == 1 ? cover : 0;
}

/* normal/licensing.py ``way_to``: the hand ``mine`` can reach partner's ``part``: a card under one of partner's winners of its suit,
 * or, partner holding a trump, a card of a suit partner is out of */
static int way_to(const Pos *p, const WRules *r, u64 mine, u64 part) {
    u64 pm = masters_in(p, r, part);
    int ptr = p->trump >= 0 && lane_of(part, p->trump);
    for (int y = 0; y < 4; y++) {
        u64 ml = lane_of(mine, y), wl = lane_of(pm, y);
        if (ml && wl && (ml & -ml) < top_bit(wl)) return 1;
        if (ml && ptr && y != p->trump && !lane_of(part, y)) return 1;
    }
    return 0;
}

/* normal/licensing.py ``cash_first``: the claimer (or declarer's dummy; not a defender's partner) holds a side-suit winner as he sees it
 * while an opponent may hold a trump and no hand of his side he sees holds one (no loser led at once under the
 * concession licence) */
static int cash_first(const Pos *p, const WRules *r, int turn) {
    if (p->trump < 0 || turn == r->pseat || !opp_lane(p, r, p->trump)) return 0;  /* not a defender's partner (70D2) */
    int pa = (turn + 2) & 3;
    if (lane_of(p->hand[turn], p->trump) || ((r->seen >> pa & 1) && lane_of(p->hand[pa], p->trump))) return 0;
    return (masters_in(p, r, p->hand[turn]) & ~(LANE << (16 * p->trump))) != 0;
}

/* normal/licensing.py ``equal_overtake`` (a declarer's claim): partner's card (``wcode``, a hand he sees) wins the trick so far and is
 * his last card of the suit led, and this hand's cheapest card beating it has no card an opponent may hold between
 * them, as he sees it, is not his last card of the suit, and at most one card an opponent may hold beats it: that
 * card, as a lane bit of the suit led (0: none).
 * ``follow``: his lane there */
static u64 equal_overtake(const Pos *p, const WRules *r, int turn, u64 follow, int wcode) {
    int led = p->tc[0] >> 4, pa = (turn + 2) & 3;
    if (r->pseat >= 0) return 0;  /* declarer's claim only (a defender's partner may duck: 70D2) */
    if (((p->leader + winning(p, p->n)) & 3) != pa || !(r->seen >> pa & 1) || (wcode >> 4) != led
        || lane_of(p->hand[pa], led)) return 0;
    u64 over = follow & ~((2ULL << (wcode & 15)) - 1);
    over &= -over;
    if (!over || !(follow & ~over)) return 0;  /* his last card of the suit: nothing to unblock */
    u64 theirs = opp_lane(p, r, led);
    if (popcount(theirs & ~((over << 1) - 1)) > 1) return 0;  /* two cards out beat it: third hand high */
    return theirs & (over - 1) & ~((2ULL << (wcode & 15)) - 1) ? 0 : over;
}

/* normal/licensing.py ``partner_takes``: following, partner (``pa``), still to play and a hand he sees, holds only cards of the suit
 * led that beat the trick so far (``wcode``) and are masters as he sees them, and no opponent still to play may ruff:
 * partner wins the trick whatever this hand plays (a winner of this hand's would crash with his) */
static int partner_takes(const WPos *w, const WRules *r, int turn, int wcode) {
    const Pos *p = &w->p;
    int led = p->tc[0] >> 4, pa = (turn + 2) & 3, still = 0;
    if (!(r->seen >> pa & 1) || (wcode >> 4) != led) return 0;
    for (int j = p->n + 1; j < 4; j++) still |= ((p->leader + j) & 3) == pa;
    u64 pl = lane_of(p->hand[pa], led);
    if (!still || !pl || (pl & ((2ULL << (wcode & 15)) - 1)) || above_all(pl, opp_lane(p, r, led)) != pl) return 0;
    if (p->trump < 0 || led == p->trump) return 1;
    for (int j = p->n + 1; j < 4; j++) {
        int s = (p->leader + j) & 3;
        if ((s & 1) != (turn & 1) && known_void(w, r, s, led) && may_hold(w, r, s, p->trump, 0)) return 0;
    }
    return 1;
}

/* normal/licensing.py ``guards_honour``: the seat's cards of ``x`` guard its top card against the tenace of an opponent's hand he sees:
 * that hand holds cards above it and one under it, and he holds exactly one card more than its cards above, or, that hand
 * playing just before him, no more than those */
static int guards_honour(const Pos *p, const WRules *r, int turn, int x) {
    u64 mine = lane_of(p->hand[turn], x), top = top_bit(mine);
    for (int s = (turn + 1) & 1; s < 4; s += 2) {  /* the opponents' hands he sees */
        u64 rl = lane_of(p->hand[s], x), above = rl & ~((top << 1) - 1);
        int k = popcount(above), n = popcount(mine);  /* over it (it plays just before him), a bare honour too */
        if ((r->seen >> s & 1) && above && (rl & (top - 1)) && (n == k + 1 || (s == ((turn + 3) & 3) && n <= k)))
            return 1;
    }
    return 0;
}

/* normal/licensing.py ``equal_winners``: he sees his masters of a suit as equal winners, to be cashed in any order: all of them
 * small (nine or lower); or every card he holds there is one, his two top cards are not honours in sequence (no card
 * of ``others``, the other hands' and the trick's, between them), and partner holds no card between the lowest and
 * the highest of them */
static inline int equal_winners(u64 masters, u64 mine, u64 part, u64 others) {
    if (top_bit(masters) < (1ULL << 10)) return 1;
    if (masters != mine) return 0;
    u64 top = top_bit(mine), second = top_bit(mine & ~top);
    if (second && second >= (1ULL << 10) && !(others & (top - 1) & ~((second << 1) - 1))) return 0;
    u64 lo = masters & -masters;
    return !(part & (top - 1) & ~((lo << 1) - 1));
}

/* normal/licensing.py ``rounds``: the side's card in each round of a suit run from the top (lanes ``a``, ``b``), in the order
 * played: the hand holding the highest card left plays it and the other its lowest; with ``unblock``, the shorter
 * holding (of equal ones, the lower) first plays its top card while that beats the other's lowest. Ranks into ``s``;
 * their number */
static int suit_rounds(u64 a, u64 b, int unblock, int *s) {
    int n = 0;
    while (a || b) {
        int pa = popcount(a), pb = popcount(b);
        u64 sh = pa < pb || (pa == pb && a < b) ? a : b, lg = sh == a ? b : a, top, other;
        if (unblock && sh && top_bit(sh) > (lg & -lg)) { top = sh; other = lg; }
        else if (a > b) { top = a; other = b; }
        else { top = b; other = a; }
        u64 t = top_bit(top);
        s[n++] = __builtin_ctzll(t);
        a = top & ~t;
        b = other & (other - 1);
    }
    return n;
}

/* normal/licensing.py ``contest``: the most of the first ``n`` rounds ``s`` (in the order played) the opponents' cards ``theirs``
 * (one hand: it follows once a round while it has cards, so only in the first rounds) can win, the lowest of those
 * rounds first, each with the smallest card that beats it */
static int contest(const int *s, int len, u64 theirs, int n) {
    int k = popcount(theirs), m = n < k ? n : k, won = 0, r[16];
    if (m > len) m = len;
    for (int i = 0; i < m; i++) {  /* those rounds, ascending */
        int j = i;
        for (; j > 0 && r[j - 1] > s[i]; j--) r[j] = r[j - 1];
        r[j] = s[i];
    }
    for (int i = 0; i < m; i++) {
        u64 over = theirs & ~((2ULL << r[i]) - 1);
        if (!over) break;  /* the rounds left are higher: nothing beats them either */
        theirs &= ~(over & -over);
        won++;
    }
    return won;
}

/* normal/licensing.py ``suit_tops``: a suit's sure tricks without losing a round, the better of the two orders of
 * ``suit_rounds``: the rounds won above every card they may hold, and every round once those have drawn their cards */
static int suit_tops(u64 a, u64 b, u64 theirs) {
    int k = popcount(theirs), top = theirs ? 63 - __builtin_clzll(theirs) : -1, s[16], best = 0;
    for (int unblock = 0; unblock < 2; unblock++) {
        int len = suit_rounds(a, b, unblock, s), p = 0;
        while (p < len && s[p] > top) p++;
        int tops = p >= k ? len : p;
        if (tops > best) best = tops;
    }
    return best;
}

/* normal/licensing.py ``_trick_sure``: does the side surely win the trick in progress, as he sees it (``opp``: the cards an
 * opponent may hold)? Its card winning so far, when no opponent is still to play, or when it is above every card of
 * its suit they may hold (a side suit in a trump contract: with no trump out); else the lowest card of the led suit
 * of a hand of the side still to play, one he sees, that beats the trick and is such a card, put into ``spent`` */
static int trick_sure(const Pos *p, const WRules *r, u64 opp, u64 *spent) {
    int wi = winning(p, p->n), wcode = p->tc[wi], wseat = (p->leader + wi) & 3, led = p->tc[0] >> 4;
    int safe = p->trump < 0 || led == p->trump || !lane_of(opp, p->trump);
    *spent = 0;
    if ((wseat & 1) == r->side) {
        int later = 0;
        for (int j = p->n; j < 4; j++)
            if ((((p->leader + j) & 3) & 1) != r->side) later = 1;
        if (!later) return 1;
        u64 th = lane_of(opp, wcode >> 4);
        if ((!th || 63 - __builtin_clzll(th) < (wcode & 15)) && ((wcode >> 4) == p->trump || safe)) return 1;
    }
    if ((wcode >> 4) != led || !safe) return 0;
    u64 th = lane_of(opp, led);
    int top = th && 63 - __builtin_clzll(th) > (wcode & 15) ? 63 - __builtin_clzll(th) : (wcode & 15);
    for (int j = p->n; j < 4; j++) {
        int q = (p->leader + j) & 3;
        if ((q & 1) != r->side || !(r->cseen >> q & 1)) continue;
        u64 over = lane_of(p->hand[q], led) & ~((2ULL << top) - 1);
        if (over) {
            *spent = (over & -over) << (16 * led);
            return 1;
        }
    }
    return 0;
}

/* normal/licensing.py ``sure_tricks``: the tricks he sees as sure, in the claimer's view (``cseen``, ``cagst``), less the cards
 * ``gone``: the trick in progress when the side surely wins it; then, at most the tricks after it, each suit's top and
 * length winners (``suit_tops``); with a trump out his trump tricks, and the other suits' only when his trumps draw
 * theirs without losing a round; with none out the ruffs of each hand he sees (the rounds its partner's longer holding
 * loses, at most its trumps) and the other trumps drawn together */
static int sure_tricks(const Pos *p, const WRules *r, u64 gone) {
    u64 opp = hands_in(p, r->cagst) & ~gone & ~r->cblind, h[2] = {0, 0}, spent = 0;
    int nh = 0, s[16], total = 0, now = p->n ? trick_sure(p, r, opp, &spent) : 0;
    for (int q = r->side; q < 4; q += 2)
        if (r->cseen >> q & 1) h[nh++] = p->hand[q] & ~spent;
    int t = p->trump;
    if (t >= 0 && lane_of(opp, t)) {
        u64 a = lane_of(h[0], t), b = lane_of(h[1], t), th = lane_of(opp, t);
        int la = popcount(a), lb = popcount(b);
        total = suit_tops(a, b, th);
        if (total == (la > lb ? la : lb) && total >= popcount(th)) {  /* every round his, theirs drawn */
            for (int x = 0; x < 4; x++)
                if (x != t) total += suit_tops(lane_of(h[0], x), lane_of(h[1], x), lane_of(opp, x));
        } else {  /* a trump may still ruff his winners: his trump tricks alone, the suit run to its end */
            int l = suit_rounds(a, b, 0, s), full = l - contest(s, l, th, l);
            if (full > total) total = full;
        }
    } else {
        int gain[2] = {0, 0};
        for (int x = 0; x < 4; x++) {
            if (x == t) continue;
            u64 a = lane_of(h[0], x), b = lane_of(h[1], x), th = lane_of(opp, x);
            total += suit_tops(a, b, th);
            if (t >= 0 && nh == 2) {
                int l = suit_rounds(a, b, 0, s), full = contest(s, l, th, l), la = popcount(a), lb = popcount(b);
                if (la < lb) gain[0] += full - contest(s, l, th, la);
                if (lb < la) gain[1] += full - contest(s, l, th, lb);
            }
        }
        if (t >= 0) {
            int t0 = popcount(lane_of(h[0], t)), t1 = popcount(lane_of(h[1], t));
            int r0 = t0 < gain[0] ? t0 : gain[0], r1 = t1 < gain[1] ? t1 : gain[1];
            total += r0 + r1 + (t0 - r0 > t1 - r1 ? t0 - r0 : t1 - r1);
        }
    }
    int after = popcount(p->hand[p->leader]);
    return (total < after ? total : after) + now;
}

/* normal/licensing.py ``guess_needed``: his sure tricks do not make every trick he claims (the tricks left less those conceded) */
static inline int guess_needed(const Pos *p, const WRules *r) {
    int left = popcount(p->hand[p->leader]) + (p->n ? 1 : 0);
    return sure_tricks(p, r, 0) < left - r->conceded;
}

/* normal/licensing.py ``guess_is_the_way``: the claim needs a guess, and with the hidden card ``m`` (a card mask) caught his sure
 * tricks make it */
static inline int guess_is_the_way(const Pos *p, const WRules *r, u64 m) {
    int need = popcount(p->hand[p->leader]) + (p->n ? 1 : 0) - r->conceded;
    return guess_needed(p, r) && need <= sure_tricks(p, r, m);
}

/* normal/licensing.py ``conceding``: the conceded tricks still to lose at the side's first lead after the claim (0 once
 * the side has led) */
static inline int conceding(const WPos *w, const WRules *r) {
    return w->last < 0 && r->conceded > w->lost ? r->conceded - w->lost : 0;
}

/* normal/licensing.py ``cheapest_over``: the card the opponents win a round with when his side plays ``low`` (a lane
 * bit, 0: none): their cheapest card above it (a card of his that is not a master may be finessed) */
static inline u64 cheapest_over(u64 theirs, u64 low) {
    u64 over = low ? theirs & ~((low << 1) - 1) : theirs;
    return over & -over;
}

/* normal/licensing.py ``rounds_taken``: the rounds of one suit the opponents (``theirs``) win on lead against his side's
 * cards as one holding (``ours``): theirs unless his side's top card is higher than all of theirs or a hand of his
 * side out of the suit ruffs (``ruff_now``; ``trumps``: his side holds a trump once out of it); his side follows
 * with its lowest, they win with their cheapest card above it */
static int rounds_taken(u64 theirs, u64 ours, int ruff_now, int trumps) {
    int taken = 0;
    while (theirs) {
        if (ruff_now || (ours && top_bit(ours) > top_bit(theirs)) || (!ours && trumps)) break;
        taken++;
        theirs &= ~cheapest_over(theirs, ours & -ours);
        ours &= ours - 1;
    }
    return taken;
}

/* normal/licensing.py ``taken_after``: the tricks the opponents take, as the seat to move sees it, once ``low`` (a lane
 * bit of suit ``x``, which his side holds no master in) is led: that trick, won by the cheapest card an opponent may
 * hold above it and partner's lowest card there, then, the hands as they are after it, their trump rounds (drawing
 * his side's trumps) and in that suit and every other the rounds they win on lead */
static int taken_after(const Pos *p, const WRules *r, int turn, int x, u64 low) {
    int pa = (turn + 2) & 3, sa = r->side, sb = r->side ^ 2, t = p->trump;
    int see_a = r->seen >> sa & 1, see_b = r->seen >> sb & 1;
    u64 opp = against(p, r);
    u64 part = r->seen >> pa & 1 ? lane_of(p->hand[pa], x) : 0;
    u64 played = low | (part & -part);
    /* the hands as they are once the trick is played */
    u64 gone_a = (sa == turn ? low : sa == pa ? part & -part : 0) << (16 * x);
    u64 gone_b = (sb == turn ? low : sb == pa ? part & -part : 0) << (16 * x);
    u64 ha = see_a ? p->hand[sa] & ~gone_a : 0, hb = see_b ? p->hand[sb] & ~gone_b : 0, side = ha | hb;
    int trumps = t >= 0 && lane_of(side, t) != 0;
    u64 theirs = lane_of(opp, x), over = theirs & ~((top_bit(played) << 1) - 1);
    if (!over) return 0;
    int taken = 1;
    if (t >= 0) {
        /* on lead, they first draw his trumps with the trump rounds they win: each round every hand of his side that
         * holds a trump follows with its lowest */
        u64 th = lane_of(opp, t), ta = lane_of(ha, t), tb = lane_of(hb, t);
        if (x == t) th &= ~(over & -over);
        while (th && top_bit(ta | tb) < top_bit(th)) {
            taken++;
            u64 la = ta & -ta, lb = tb & -tb;
            th &= ~cheapest_over(th, la > lb ? la : lb);
            ta &= ta - 1;
            tb &= tb - 1;
        }
        ha = (ha & ~(LANE << (16 * t))) | ta << (16 * t);
        hb = (hb & ~(LANE << (16 * t))) | tb << (16 * t);
        side = ha | hb;
        trumps = (ta | tb) != 0;
    }
    for (int y = 0; y < 4; y++) {
        if (y == t) continue;
        /* a hand of his side he sees, out of the suit, holds a trump (after their trump rounds) */
        int ruff = t >= 0 && ((see_a && !lane_of(ha, y) && lane_of(ha, t))
                              || (see_b && !lane_of(hb, y) && lane_of(hb, t)));
        u64 th = lane_of(opp, y), ours = lane_of(side, y);
        if (y == x) {
            th &= ~(over & -over);  /* the cheapest card that wins the trick */
            ours &= ~played;
        }
        taken += rounds_taken(th, ours, ruff, trumps);
    }
    return taken;
}

/* normal/licensing.py ``void``'s ``unaware_winner``: fooled by a card he does not know of (a card of his he sees as a master
 * with a higher one out, unknown to him), the lowest card of each side suit (``suits``, a bit per suit) that holds no
 * such card of his: he may keep it and throw a real winner */
static u64 fooled_discards(const Pos *p, const WRules *r, u64 h, u64 opp, int suits) {
    u64 blind = r->blind & (p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3]), out = 0;
    if (!r->unaware_winner || !blind) return 0;
    int fooled = 0;
    for (int x = 0; x < 4; x++) {
        u64 bx = lane_of(blind, x);
        if (bx && (above_all(lane_of(h, x), lane_of(opp, x)) & (top_bit(bx) - 1))) fooled |= 1 << x;
    }
    if (!fooled) return 0;
    for (int x = 0; x < 4; x++) {
        u64 l = lane_of(h, x);
        if ((suits >> x & 1) && !(fooled >> x & 1)) out |= (l & -l) << (16 * x);
    }
    return out;
}

/* normal/licensing.py ``licences`` from the claimer's view, as a mask of the seat to move's cards */
static u64 wlicences(const WPos *w, int turn, const WRules *r) {
    const Pos *p = &w->p;
    int pa = (turn + 2) & 3, o1 = (turn + 1) & 3, o2 = (turn + 3) & 3;
    int partner_seen = r->seen >> pa & 1;  /* a declarer sees dummy; a defender does not see his partner */
    u64 opp = against(p, r);  /* as he sees it: a defender's includes partner's cards */
    u64 h = p->hand[turn], out = 0;
    u64 blind = r->blind & (p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3]);  /* (a card played is seen) */
    if (p->n == 0) {
        int opp_trumps = p->trump >= 0 && lane_of(opp, p->trump);
        int only = -1;
        if (r->continue_suit && w->last >= 0 && lane_of(h, w->last) && side_master(p, r, w->last)) only = w->last;
        for (int x = 0; x < 4; x++) {
            u64 mine = lane_of(h, x);
            if (!mine || (only >= 0 && x != only)) continue;
            u64 theirs = lane_of(opp, x), part = lane_of(p->hand[pa], x);
            u64 masters = above_all(mine, theirs), low = mine & -mine;
            if (masters && part && (part & -part) > top_bit(mine)) masters = 0;  /* partner would overtake */
            int crash = crashes(masters, mine, part, theirs);
            if (crash) masters = 0;
            int idle = x == p->trump && !opp_trumps;
            if (r->suit_order && (!opp_trumps || x == p->trump) && !idle) {
                if (masters) {
                    if (r->equal_small && equal_winners(masters, mine, part, lane_of(others_of(p, turn), x)))
                        out |= masters << (16 * x);
                    out |= top_bit(masters) << (16 * x);
                    if (!r->top_down) out |= masters << (16 * x);
                } else if (!crash && part && top_bit(part) > top_bit(theirs)) {
                    if (!(low > top_bit(theirs) && (part & -part) > low) && !strands(p, r, turn, x, low, 0))
                        out |= low << (16 * x);
                }
            }
            u64 m;
            if (r->guess && partner_seen && !shown_out(w->voids, o1, o2, x) && (m = real_guess(mine, part, theirs))
                && guess_is_the_way(p, r, m << (16 * x))
                && !strands(p, r, turn, x, low, 1))
                out |= low << (16 * x);
            /* "now or at the end": the side's first lead after the claim while a conceded trick is still to lose, not
             * any lead in between, and only a trick he concedes: the opponents, winning it, take no more */
            int left = conceding(w, r);
            u64 lost = x == p->trump ? top_bit(mine) : low;  /* a trump loser from the top (trumps go top down) */
            if (r->concedes && left > 0 && !side_master(p, r, x) && !cash_first(p, r, turn)
                && taken_after(p, r, turn, x, lost) <= left)
                out |= lost << (16 * x);
            /* ``trump_at_the_end_leads``: at the end he cashes his winners first, his last trump among them when
             * none is out and partner holds none */
            if (r->concedes && left > 0 && idle && !(mine & (mine - 1)) && !lane_of(p->hand[pa], x))
                out |= top_bit(mine) << (16 * x);
        }
        return out;
    }
    int led = p->tc[0] >> 4;
    u64 follow = lane_of(h, led);
    int wi = winning(p, p->n), wcode = p->tc[wi], wseat = (p->leader + wi) & 3;
    int partner_winning = (wseat & 1) == (turn & 1) && v_wins(w, r, turn, wcode, 1);
    if (follow) {
        /* partner's card surely wins: the lowest; else his cheapest card that surely wins; else, an opponent winning,
         * his cheapest card that beats the trick and no opponent still to play is known to beat; else the lowest */
        u64 over = 0, sure = 0;
        if ((wcode >> 4) == led)
            for (u64 o = follow & ~((2ULL << (wcode & 15)) - 1); o; o &= o - 1) {
                int c = 16 * led + __builtin_ctzll(o);
                if (v_wins(w, r, turn, c, 0)) {
                    over |= o & -o;
                    if (v_wins(w, r, turn, c, 1)) sure |= o & -o;
                }
            }
        u64 ub = partner_winning && wseat == pa ? unblock_card(p, r, turn, pa, wcode) : 0, eq;
        if (ub && !unblock_gains(p, r, turn, ub)) return 0;  /* it strands as much as it frees: best play only */
        if (ub) out = ub;  /* partner's last card of the suit: he overtakes rather than block his winners */
        else if (partner_winning || !over || partner_takes(w, r, turn, wcode)) {
            u64 force = partner_winning || over || partner_takes(w, r, turn, wcode)
                        ? 0 : ruffed_master(p, r, turn, follow, wseat, wcode);  /* a master only a ruff beats */
            if (!force && !partner_winning && !over && !partner_takes(w, r, turn, wcode))
                force = forcing_card(w, r, turn, follow, wcode);
            if (!force && !(partner_winning || over || partner_takes(w, r, turn, wcode)))
                force = cover_card(w, r, turn, follow, wcode);  /* covered where the cover promotes his low card */
            out = force ? force : follow & -follow;  /* unable to win it, no spot card let win it */
        }
        else if (sure) out = sure & -sure;
        else if ((eq = equal_overtake(p, r, turn, follow, wcode))) out = eq;  /* partner's last card: an equal */
        else if (p->n == 2 && ((wseat & 1) != (turn & 1) || popcount(opp_lane(p, r, led) >> ((wcode & 15) + 1)) > 1)) {
            /* third hand high (partner's card, if winning, not an honour run as a finesse): the lowest of his top
             * cards (no other hand's card, nor the trick's, between) */
            u64 top = top_bit(follow), below = lane_of(others_of(p, turn) & ~blind, led) & (top - 1);
            u64 run = below ? follow & ~((top_bit(below) << 1) - 1) : follow;
            out = run & -run;
        } else if ((wseat & 1) != (turn & 1)) out = over & -over;
        else out = follow & -follow;
        u64 m, fin;
        if (r->guess && p->n == 2 && p->leader == pa && !shown_out(w->voids, o1, o2, led) && (wcode >> 4) == led
            && (fin = finesse_card(follow & ~((2ULL << (wcode & 15)) - 1), lane_of(opp, led),
                                   lane_of(opp & ~hands_in(p, r->hid), led), follow,
                                   partner_seen ? lane_of(p->hand[pa], led) : 0, &m))
            && guess_is_the_way(p, r, m << (16 * led)))
            out |= fin;
        out <<= 16 * led;
        if (r->equal_small) out = seen_equals(out, h, others_of(p, turn), blind);
        return out;
    }
    u64 trumps = p->trump >= 0 ? lane_of(h, p->trump) : 0;
    if (trumps && !partner_winning && led != p->trump) {
        for (int j = p->n + 1; j < 4; j++) {  /* an opponent still to play may hold a trump: best play only */
            int s = (p->leader + j) & 3;
            if ((s & 1) != (turn & 1) && may_hold(w, r, s, p->trump, 0)) return 0;
        }
        /* partner, still to play, holds a winner of the suit led that beats the trick: he discards */
        u64 pl = lane_of(p->hand[pa], led);
        if ((wcode >> 4) == led) pl &= ~((2ULL << (wcode & 15)) - 1);
        else pl = 0;
        int partner_later = partner_seen && p->n == 1 && above_all(pl, lane_of(opp, led));
        u64 ruff = r->ruff_low && !partner_later ? lowest_winning_ruff(p, trumps) : 0;
        if (ruff) {
            out = ruff << (16 * p->trump);
            return r->equal_small ? seen_equals(out, h, others_of(p, turn), blind) : out;
        }
    }
    int losers = 0, guards = 0, suits = 0;
    for (int x = 0; x < 4; x++) {
        if (!lane_of(h, x) || x == p->trump) continue;
        suits |= 1 << x;
        if (!side_master(p, r, x)) {
            losers |= 1 << x;
            if (guards_honour(p, r, turn, x)) guards |= 1 << x;
        }
    }
    if (suits & ~guards) losers &= ~guards;  /* he keeps the guard, holding a card of another side suit */
    for (int x = 0; x < 4; x++) {
        u64 l = lane_of(h, x);
        if (losers >> x & 1) out |= (l & -l) << (16 * x);  /* a loser's lowest */
    }
    return out | fooled_discards(p, r, h, opp, suits);
}

/* normal/licensing.py ``length_winners``: the cards of ``side_cards`` (the seat's side-suit cards) whose loss lowers their suit's
 * sure tricks as he counts them (``suit_tops``: his holding and partner's in his view, against the cards an opponent may hold) */
static u64 length_winners(const Pos *p, const WRules *r, int turn, u64 side_cards) {
    int pa = (turn + 2) & 3;
    u64 opp = against(p, r), out = 0;
    for (int x = 0; x < 4; x++) {
        u64 a = lane_of(side_cards, x);
        if (!a) continue;
        u64 b = r->seen >> pa & 1 ? lane_of(p->hand[pa], x) : 0, theirs = lane_of(opp, x);
        int full = suit_tops(a, b, theirs);
        for (u64 o = a; o; o &= o - 1)
            if (suit_tops(a & ~(o & -o), b, theirs) < full) out |= (o & -o) << (16 * x);
    }
    return out;
}

/* normal/licensing.py ``keepers``: the side-suit cards of the seat to move he sees as worth keeping (``side_cards``: its cards outside
 * trumps): its winners as he sees them, and, partner's hand in his view, its only entry to partner's winners */
static inline u64 keepers(const Pos *p, const WRules *r, int turn, u64 side_cards) {
    u64 keep = masters_in(p, r, side_cards), entries = 0;
    if (!(r->seen >> ((turn + 2) & 3) & 1)) return keep;
    u64 pm = masters_in(p, r, p->hand[(turn + 2) & 3]);
    for (int x = 0; x < 4; x++) {
        u64 pl = lane_of(pm, x);
        if (pl) entries |= (lane_of(side_cards, x) & (top_bit(pl) - 1)) << (16 * x);
    }
    if (entries && !(entries & (entries - 1))) keep |= entries;
    return keep;
}

/* normal/ties.py ``ties``: the best-play cards ``dd`` narrowed to those a player without sight of the opponents' hands could
 * choose (never to none). On lead: no trump when the opponents hold none. Mid-trick: nobody ruffs partner's sure
 * winner; following when he cannot win the trick (no card beats it, or partner's surely wins), the lowest; discarding,
 * no winner, top or length (nor his only entry to partner's winners), while he holds a side-suit loser, no master (nor
 * that entry) while he holds another side-suit card, and of a side suit its lowest card */
static u64 narrow(const WPos *w, const WRules *r, int turn, u64 dd, u64 legal) {
    const Pos *p = &w->p;
    u64 tl = p->trump >= 0 ? LANE << (16 * p->trump) : 0, nd;
    if (!p->n) {
        if (p->trump >= 0 && !opp_lane(p, r, p->trump)) {
            nd = dd & ~tl;
            if (nd) dd = nd;
        }
        if (!conceding(w, r)) {
            /* able to lead a card he sees win the trick (normal/licensing.py ``winning_lead``: a master, a card of a suit partner, in
             * view, holds a master of, or, partner void there, can ruff), he leads one: a loser only as a conceded
             * trick, at the side's first lead (none since the claim) while one is still to lose */
            u64 keep = masters_in(p, r, p->hand[turn]);
            int pa = (turn + 2) & 3;
            if (r->seen >> pa & 1) {
                u64 pm = masters_in(p, r, p->hand[pa]);
                int ptr = p->trump >= 0 && lane_of(p->hand[pa], p->trump);
                for (int x = 0; x < 4; x++) {
                    u64 pl = lane_of(p->hand[pa], x);
                    if (pl ? lane_of(pm, x) != 0 : ptr && x != p->trump) keep |= LANE << (16 * x);
                }
            }
            nd = dd & keep;
            if (nd) dd = nd;
        }
        if (cash_first(p, r, turn)) {  /* a winner an opponent's trump could ruff is cashed before the lead goes */
            nd = dd & masters_in(p, r, p->hand[turn]) & ~tl;
            if (nd) dd = nd;
        }
        int sp = (turn + 2) & 3;
        if (r->seen >> sp & 1) {  /* normal/ties.py ``entries_and_unblocking`` */
            u64 keep = 0;
            for (u64 o = dd; o; o &= o - 1) {  /* no crossing to partner's master that strands his winners */
                int c = __builtin_ctzll(o), x = c >> 4;
                u64 bit = 1ULL << (c & 15), theirs = opp_lane(p, r, x);
                u64 pl = lane_of(p->hand[sp], x), pm = above_all(pl, theirs) & ~((bit << 1) - 1);
                int cross = pm && (bit <= top_bit(theirs) || !(pl & ((bit << 1) - 1)));  /* normal/licensing.py ``crossing`` */
                if (!cross || !strands(p, r, turn, x, bit, 0)) keep |= o & -o;
            }
            if (keep) dd = keep;
            keep = 0;
            for (int x = 0; x < 4; x++) {
                u64 ml = lane_of(p->hand[turn], x), pl = lane_of(p->hand[sp], x);
                u64 k = LANE;
                /* a winner of his led under partner's cards, all higher, while he holds a lower card: a crash */
                u64 crash = pl ? above_all(ml, lane_of(against(p, r), x)) & ((pl & -pl) - 1) & ~(ml & -ml) : 0;
                if (ml && popcount(pl) > popcount(ml) && top_bit(pl) > top_bit(ml)) k = top_bit(ml);
                else if (pl && popcount(pl) < popcount(ml) && top_bit(pl) < top_bit(ml)
                         && top_bit(pl) > top_bit(lane_of(against(p, r), x))) k = ml & -ml;
                keep |= (k & ~crash) << (16 * x);
            }
            nd = dd & keep;
            if (nd) dd = nd;
        }
        return dd;
    }
    int led = p->tc[0] >> 4, wcode = p->tc[winning(p, p->n)];
    int psure = v_partner_sure(w, r, turn);
    if (psure && p->trump >= 0 && led != p->trump && (legal & ~tl)) {
        nd = dd & ~tl;  /* nobody ruffs partner's sure winner */
        if (nd) dd = nd;
    }
    u64 fl = lane_of(legal, led);
    if (fl) {  /* following */
        int can_beat = (wcode >> 4) == led && (fl >> ((wcode & 15) + 1)) != 0;
        if (psure || !can_beat || partner_takes(w, r, turn, wcode)) {
            u64 low = legal & -legal, ub = psure ? unblock_card(p, r, turn, (turn + 2) & 3, wcode) : 0;
            nd = dd & (ub ? ub << (16 * led) : low);
            return nd ? nd : dd;
        }
        u64 sure = 0;  /* he does not give up a trick he sees as won */
        for (u64 o = fl & ~((2ULL << (wcode & 15)) - 1); o; o &= o - 1)
            if (v_wins(w, r, turn, 16 * led + __builtin_ctzll(o), 1)) sure |= o & -o;
        nd = dd & (sure << (16 * led));
        if (nd) return nd;
        nd = dd & (equal_overtake(p, r, turn, fl, wcode) << (16 * led));
        return nd ? nd : dd;
    }
    u64 side_cards = p->hand[turn] & ~tl;
    u64 keep = keepers(p, r, turn, side_cards), counted = keep | length_winners(p, r, turn, side_cards);
    if (side_cards & ~counted) {  /* a loser held: no winner, top or length (nor the only entry), thrown */
        nd = dd & (tl | ~counted);
        if (nd) dd = nd;
    } else if (side_cards & ~keep) {  /* only winners: a length winner before a top winner (or the only entry) */
        nd = dd & (tl | ~keep);
        if (nd) dd = nd;
    } else if (!psure) {  /* no loser held: he ruffs rather than throw a winner */
        nd = dd & tl;
        if (nd) dd = nd;
    }
    u64 bottoms = 0;
    for (int x = 0; x < 4; x++) {
        u64 l = lane_of(side_cards, x);
        bottoms |= (l & -l) << (16 * x);
    }
    nd = dd & (tl | bottoms);
    return nd ? nd : dd;
}

/* On lead (the leader of the side) with every card above the opponents' in its suit and no ruff to fear:
 * every trick is the side's, however it is played. */
static int sweeps(const Pos *p, int side) {
    if ((p->leader & 1) != side) return 0;
    u64 opp = p->hand[side ^ 1] | p->hand[side ^ 3];
    u64 ours = p->hand[side] | p->hand[side ^ 2];
    if (p->trump >= 0 && lane_of(opp, p->trump)) return 0;
    for (int x = 0; x < 4; x++) {
        u64 t = lane_of(opp, x);
        if (t && (lane_of(ours, x) & ((top_bit(t) << 1) - 1))) return 0;
    }
    return 1;
}

/* On lead (the leader of the side) with a hand of cards no one else can beat: each above every opponent's card of its
 * suit and every card partner holds there, no opponent holding a trump, and partner none either (or every card of the
 * hand a trump). Whatever he leads wins, he keeps the lead, and all that stays true: every trick is the side's,
 * however anyone plays (the two hands need not both be masters, as ``sweeps`` asks: partner only follows or throws). */
static int hand_sweeps(const Pos *p, int side) {
    int l = p->leader;
    if ((l & 1) != side) return 0;
    u64 opp = p->hand[side ^ 1] | p->hand[side ^ 3], mine = p->hand[l], part = p->hand[l ^ 2];
    if (p->trump >= 0) {
        if (lane_of(opp, p->trump)) return 0;
        if (lane_of(part, p->trump) && (mine & ~(LANE << (16 * p->trump)))) return 0;
    }
    for (int x = 0; x < 4; x++) {
        u64 m = lane_of(mine, x);
        if (!m) continue;
        u64 low = m & -m, above = lane_of(opp | part, x) & ~(low - 1);
        if (above) return 0;
    }
    return 1;
}

/* At a trick start, tricks the side's trumps win whatever is played: for each of its hands, its trumps less those the
 * opponents' trumps can beat one for one (each of the hand's trumps is played in a trick of its own, and loses it
 * only to a higher trump of an opponent's there); the most over the two hands (as Searcher._trump_bound). */
static int trump_floor(const Pos *p, int side) {
    if (p->trump < 0) return 0;
    u64 opp = lane_of(p->hand[side ^ 1] | p->hand[side ^ 3], p->trump);
    int best = 0;
    for (int h = side; h < 4; h += 2) {
        u64 m = lane_of(p->hand[h], p->trump), o = opp;
        int kept = popcount(m);
        while (o && m) {  /* each opponent's trump, lowest first, beats the hand's lowest trump under it */
            u64 ob = o & -o;
            o &= o - 1;
            u64 under = m & (ob - 1);
            if (under) { m &= ~(under & -under); kept--; }
        }
        if (kept > best) best = kept;
    }
    return best;
}

/* the run of equal cards of ``legal`` that ``code`` heads (gen_moves gives each run's top card): it and the legal
 * cards below it down to the first card of ``others`` */
static inline u64 run_below(int code, u64 legal, u64 others) {
    int x = code >> 4, r = code & 15;
    u64 below = lane_of(others, x) & ((1ULL << r) - 1);
    u64 floor_bit = below ? top_bit(below) << 1 : 1;
    return (lane_of(legal, x) & ((2ULL << r) - 1) & ~(floor_bit - 1)) << (16 * x);
}

static int last_ns, last_rem;  /* the last value side_moves worked out (the side's tricks), and the tricks left then */

/* ---- best play in long positions by DDS ----
 * ``ab`` orders its moves by little more than rank: at 10 tricks and more it took 4,000 (10 tricks) to 225,000 (12)
 * positions to find a W node's best-play cards, and such solves were 99 % of W's time on the 12-trick benchmark
 * positions whose W lies well below double dummy (random-01: 12 M of the search's 12.1 M positions; DDS gave every
 * card's value of its root in 13 ms against our 580 ms). From ``long_tricks`` cards in the mover's hand, side_moves
 * asks DDS (engine/play/dds.py sets the callable: ``set_long_solver``), whose table carries from one position of the
 * deal to the next: (m0, m1, m2, m3, trump, leader, trick codes) -> (the mover's side's tricks, its best-play cards as a
 * mask). Double-dummy values are unique, so the best-play set is the one ``best_runs`` finds: no count changes. */
static PyObject *long_solver = NULL;
static int long_tricks = 99;
static int long_failed;  /* the callable raised (its error is set): the search unwinds and worst() raises it */
/* work charged per DDS call, as the budgets count work and stand for time: ~0.1-0.3 ms a call (its table reused)
 * against ~110 ns a position of ours */
#define LONG_WORK 2000
/* our solver's positions for a long position's best-play cards before DDS is asked instead (0: DDS at once). Measured
 * on the benchmark's slowest ten positions (2026-11-28, CPU s): DDS at once from 10 tricks 21.1 s in all against 21.5
 * s without DDS (random-01 3.4 -> 0.7, but the 7NT seeds 2x slower: their solves are cheap for ours and a DDS call
 * costs ~0.2 ms); first ours within 1,500 positions, 15.5 s with both gains */
static long long long_cap = 1500;

/* the mover's side's double-dummy tricks by DDS and its best-play cards among ``legal`` (``*dd``); -1 on an error */
static int long_best(const Pos *p, u64 legal, u64 *dd) {
    PyObject *trick = PyTuple_New(p->n);
    if (trick == NULL) goto fail;
    for (int i = 0; i < p->n; i++) {
        PyObject *c = PyLong_FromLong(p->tc[i]);
        if (c == NULL) { Py_DECREF(trick); goto fail; }
        PyTuple_SET_ITEM(trick, i, c);
    }
    PyObject *res = PyObject_CallFunction(long_solver, "KKKKiiN", (unsigned long long)p->hand[0],
                                          (unsigned long long)p->hand[1], (unsigned long long)p->hand[2],
                                          (unsigned long long)p->hand[3], p->trump, p->leader, trick);
    if (res == NULL) goto fail;
    int ns;
    unsigned long long m;
    int ok = PyArg_ParseTuple(res, "iK", &ns, &m);
    Py_DECREF(res);
    if (!ok) goto fail;
    work += LONG_WORK;
    *dd = (u64)m & legal;
    if (!*dd) {
        PyErr_SetString(PyExc_ValueError, "the long solver gave no legal best-play card");
        goto fail;
    }
    return ns;
fail:
    long_failed = 1;
    wgave_up = 1;
    return -1;
}

/* side_moves' solver results by rank-relative layout (the W search meets the same layouts again, in each of its
 * queries and under W keys that differ only in what the licences read): North-South's tricks and every best-play
 * card of the seat to move. The layout is that of the trick's start (the trick's cards back in their hands) with
 * the trick's cards named by suit and rank order; best-play cards are kept by rank order too, so a layout met
 * again with other spot cards maps back onto its own. Measured on the 7NT spade guess: 70 % of the solves by exact
 * position were such repeats. */
typedef struct {
    u64 k[2], dd;   /* the layout; best-play cards as bits 16 * suit + order from the top */
    uint32_t t;     /* the trick: cards played (n), leader, each card as suit and order */
    int8_t ns, trump, rem;  /* ns: the mover's side's tricks from here (at least these when not ``exact``) */
    uint8_t used;  /* the question that stored it (0: empty) */
    uint8_t exact;
} DEntry;

#define DTT_BITS 18
static DEntry *dtt = NULL;

/* the order from the top of card ``c`` among ``all`` (every card of its suit still in a hand or the trick) */
static inline int order_of(u64 all, int c) {
    return popcount(lane_of(all, c >> 4) >> ((c & 15) + 1));
}

/* cards per seat per suit, four bits each (as ``tops`` gives them) */
static inline u64 lens_of(const Pos *p) {
    u64 ln = 0;
    for (int x = 0; x < 4; x++)
        for (int s = 0; s < 4; s++) ln |= (u64)popcount(lane_of(p->hand[s], x)) << (16 * x + 4 * s);
    return ln;
}

/* a position's key for the cache: the trick start's rank-relative layout and the trick as a word; ``*all``: every
 * card in a hand or the trick; ``*lens``: the trick start's lengths (the partition table's bucket). ``layout``: the
 * layout when the caller has it already (at a trick start), else NULL */
static inline void dkey(const Pos *p, const u64 *layout, u64 k[2], uint32_t *t, u64 *all, u64 *lens) {
    if (layout != NULL && p->n == 0) {
        k[0] = layout[0];
        k[1] = layout[1];
        *all = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
        *lens = lens_of(p);
        *t = (uint32_t)(p->leader << 2);
        return;
    }
    Pos q = *p;
    for (int i = 0; i < p->n; i++) q.hand[(p->leader + i) & 3] |= 1ULL << p->tc[i];
    tops(&q, k, lens);
    *all = q.hand[0] | q.hand[1] | q.hand[2] | q.hand[3];
    uint32_t w = (uint32_t)(p->n | p->leader << 2);
    for (int i = 0; i < p->n; i++)
        w |= (uint32_t)((p->tc[i] >> 4) << 4 | order_of(*all, p->tc[i])) << (4 + 6 * i);
    *t = w;
}

static inline int dholds(const DEntry *e, const u64 k[2], uint32_t t, int trump) {
    return e->used == question && e->t == t && e->trump == trump && e->k[0] == k[0] && e->k[1] == k[1];
}

/* a key's entry of its slot pair (two-way, as ``slot``) */
static inline DEntry *dslot(const u64 k[2], uint32_t t, int trump) {
    u64 i = mix(hash_of(k, 0, trump) ^ t) >> (64 - DTT_BITS);
    DEntry *a = &dtt[i], *b = &dtt[i ^ 1];
    if (dholds(a, k, t, trump)) return a;
    if (dholds(b, k, t, trump)) return b;
    return victim(a->used, a->rem, b->used, b->rem) ? b : a;
}

/* cards of ``h`` as rank-order bits and back (``all`` as ``dkey`` gives it) */
static inline u64 to_order(u64 h, u64 all) {
    u64 out = 0;
    for (; h; h &= h - 1) {
        int c = __builtin_ctzll(h);
        out |= 1ULL << (16 * (c >> 4) + order_of(all, c));
    }
    return out;
}

static inline u64 from_order(u64 bits, u64 h, u64 all) {
    u64 out = 0;
    for (; h; h &= h - 1) {
        int c = __builtin_ctzll(h);
        if (bits >> (16 * (c >> 4) + order_of(all, c)) & 1) out |= 1ULL << c;
    }
    return out;
}

/* ---- best-play sets by partition ----
 * What best_runs finds rests, like a bound of ``ab``'s, on fewer facts than the whole layout: on the cards ``ab``
 * returned as ``rel`` for its tests and the cards that won a trick by rank there (``brel``), and on the trick's cards.
 * A best-play set is stored with the owners of each suit's cards, at the trick's start, down to the lowest of those,
 * and holds for every position with the same lengths, trick (cards by suit and order from the top), trump and those
 * owners. Two facts about runs of equal cards need more cards kept (each found by the check below, see the tests):
 * a run of the mover's with its top card at or above the lowest card kept in its suit is kept whole (else, in a
 * matching position, other cards may lie between its cards and split it); and when the solve stopped at "one run
 * alone reaches the value" (not exact), that run is kept whole (in a matching position its low cards may be several
 * runs, only one of them the best). A run wholly below the cards kept stands for every low card of the mover's in
 * its suit: the positions after any of them match. The set is kept as the mover's cards by their order in his hand
 * (a bit gather of his hand), so it maps onto any matching position.
 * Measured on the benchmark (2026-11-24): partition matches would save 70 % of the solver's work in best_runs on the
 * 7♠ example and 83 % on the 7NT finesse-only seed (12 % on random-24); W there 3.18 s -> 2.57 s and 2.13 -> 1.70 s.
 */
typedef struct {
    u64 lens, mask[2], pat[2];
    u64 best;       /* best-play cards as bits of the mover's hand gathered (lowest first) */
    uint32_t t;     /* the trick, as DEntry's */
    uint32_t stamp; /* when last stored or read, in the question: the oldest of a bucket is replaced */
    int8_t ns, trump;
    uint8_t used, exact;
} BEntry;

#define BT_BITS 18
#define BT_WAYS 8
static BEntry *bt = NULL;
/* work charged for a set taken over: the budget stands for time, and at 0 positions that stop at the budget took
 * 3-10 % longer than before this table (matches cost time and no work); at 4 random-01 stops at 3.6 s instead of
 * 3.9 s (3.5 s before) and random-02 is still proven (49,000 nodes); at 10 random-02 is no longer proven */
#define MATCH_WORK 4
static uint32_t bclock;
static int check_best;                          /* every match is checked against a fresh solve (tests) */
static unsigned long long best_matches, best_bad; /* matches used, and those a fresh solve contradicted */

/* bit gather and scatter: the cards of ``m`` at ``hand``'s cards, packed lowest first, and back */
static inline u64 gather_soft(u64 m, u64 hand) {
    u64 out = 0;
    int j = 0;
    for (; hand; hand &= hand - 1, j++)
        if (m & hand & -hand) out |= 1ULL << j;
    return out;
}

static inline u64 scatter_soft(u64 bits, u64 hand) {
    u64 out = 0;
    for (int j = 0; hand; hand &= hand - 1, j++)
        if (bits >> j & 1) out |= hand & -hand;
    return out;
}

#ifdef TOPS_BMI2
__attribute__((target("bmi2"))) static u64 gather_bmi2(u64 m, u64 hand) { return _pext_u64(m, hand); }
__attribute__((target("bmi2"))) static u64 scatter_bmi2(u64 bits, u64 hand) { return _pdep_u64(bits, hand); }
#endif

static inline u64 gather(u64 m, u64 hand) {
#ifdef TOPS_BMI2
    if (have_bmi2) return gather_bmi2(m, hand);
#endif
    return gather_soft(m, hand);
}

static inline u64 scatter(u64 bits, u64 hand) {
#ifdef TOPS_BMI2
    if (have_bmi2) return scatter_bmi2(bits, hand);
#endif
    return scatter_soft(bits, hand);
}

static inline BEntry *bbucket(u64 lens, uint32_t t, int trump) {
    u64 h = mix(lens ^ ((u64)t << 3 | (u64)(trump + 1)) * 0x9E3779B97F4A7C15ULL);
    return &bt[(h >> (64 - BT_BITS)) & ~(u64)(BT_WAYS - 1)];
}

/* does ``e`` hold a set of this question's for these lengths, trick and trump (its cards not yet compared)? */
static inline int bsame(const BEntry *e, u64 lens, uint32_t t, int trump) {
    return e->used == question && e->lens == lens && e->t == t && e->trump == trump;
}

/* a best-play set stored for a position matching this one (trick start layout ``k``, lengths ``lens``), if any is
 * good for a search asking ``beta`` (exact, or a lower bound reaching it) */
static BEntry *best_entry(u64 lens, const u64 k[2], uint32_t t, int trump, int beta) {
    BEntry *b = bbucket(lens, t, trump);
    for (int i = 0; i < BT_WAYS; i++) {
        BEntry *e = &b[i];
        if (bsame(e, lens, t, trump) && (k[0] & e->mask[0]) == e->pat[0] && (k[1] & e->mask[1]) == e->pat[1]
            && (e->exact || e->ns >= beta)) {
            e->stamp = ++bclock;
            return e;
        }
    }
    return NULL;
}

/* stores a best-play set (``best``: cards of ``hand``) resting on the top cards ``tv`` counts of the trick start */
static void best_store(u64 lens, const u64 k[2], uint32_t t, int trump, unsigned tv, u64 best, u64 hand, int ns,
                       int exact) {
    u64 m[2], pat[2];
    count_masks(tv, m);
    pat[0] = k[0] & m[0];
    pat[1] = k[1] & m[1];
    BEntry *b = bbucket(lens, t, trump), *e = NULL;
    for (int i = 0; i < BT_WAYS && e == NULL; i++) {
        BEntry *c = &b[i];
        if (bsame(c, lens, t, trump) && c->mask[0] == m[0] && c->mask[1] == m[1] && c->pat[0] == pat[0]
            && c->pat[1] == pat[1])
            e = c;
    }
    if (e == NULL) {
        e = &b[0];
        for (int i = 0; i < BT_WAYS; i++) {
            BEntry *c = &b[i];
            if (c->used != question) { e = c; break; }
            if (c->stamp < e->stamp) e = c;
        }
    }
    e->lens = lens;
    e->mask[0] = m[0];
    e->mask[1] = m[1];
    e->pat[0] = pat[0];
    e->pat[1] = pat[1];
    e->best = gather(best, hand);
    e->t = t;
    e->ns = (int8_t)ns;
    e->trump = (int8_t)trump;
    e->exact = (uint8_t)exact;
    e->used = question;
    e->stamp = ++bclock;
}

/* normal/licensing.py ``draws_trumps_first``: at a trick start the seat to move (``r`` its view) holds a trump, an opponent
 * may hold a trump as it sees it, and the side's trumps in the hands it sees draw every one of them whatever the layout:
 * as many above the highest trump out as there are trumps out, and a holding as long. Its normal leads are then trumps
 * and the side-suit cards no trump out can win (``ruff_safe``) only (a restriction, as continue_suit) */
static int draws_first(const Pos *p, const WRules *r, int turn) {
    if (!r->draw || p->n || p->trump < 0 || !lane_of(p->hand[turn], p->trump)) return 0;
    u64 theirs = opp_lane(p, r, p->trump);
    if (!theirs) return 0;
    u64 above = ~((top_bit(theirs) << 1) - 1);
    int n = popcount(theirs), masters = 0, longest = 0;
    for (int s = r->side; s < 4; s += 2)
        if (r->seen >> s & 1) {
            u64 l = lane_of(p->hand[s], p->trump);
            masters += popcount(l & above);
            if (popcount(l) > longest) longest = popcount(l);
        }
    return masters >= n && longest >= n;
}

/* normal/licensing.py ``ruff_safe``: a lead of side suit ``x`` by ``turn`` that no trump out can win, as it sees it: no opponent
 * may be out of ``x`` (not known to hold a card of it) while he may hold a trump; or partner, in view, is out of ``x``
 * and holds a trump above every trump an opponent may hold, and the side's trumps without it still draw theirs (a
 * crossruff: an opponent's ruff is overruffed, at no cost to the draw; the second hand's only) */
static int ruff_safe(const WPos *w, const WRules *r, int turn, int x) {
    const Pos *p = &w->p;
    int t = p->trump, pa = (turn + 2) & 3, risk = 0;
    for (int o = (turn + 1) & 3, i = 0; i < 2; i++, o = (o + 2) & 3)
        if (!must_hold(w, r, o, x, 0) && may_hold(w, r, o, t, 0)) risk |= 1 << i;
    if (!risk) return 1;
    /* partner overruffs only the second hand's ruff (bit 0): the fourth hand plays after him */
    if (!(r->seen >> pa & 1) || lane_of(p->hand[pa], x) || (risk & 2)) return 0;
    u64 pt = lane_of(p->hand[pa], t), theirs = opp_lane(p, r, t), mine = lane_of(p->hand[turn], t);
    if (top_bit(pt) <= top_bit(theirs)) return 0;
    u64 above = ~((top_bit(theirs) << 1) - 1);
    int n = popcount(theirs), lm = popcount(mine), lp = popcount(pt) - 1;
    return popcount(mine & above) + popcount(pt & above) - 1 >= n && (lm > lp ? lm : lp) >= n;
}

/* normal/licensing.py ``ruff_now``: a lead of side suit ``x`` by ``turn`` that a trump he knows of can in fact ruff: an
 * opponent holds one and no card of ``x`` (the cards as they lie) */
static int ruff_now(const Pos *p, const WRules *r, int turn, int x) {
    u64 known = opp_lane(p, r, p->trump);
    for (int o = (turn + 1) & 3, i = 0; i < 2; i++, o = (o + 2) & 3)
        if (!lane_of(p->hand[o], x) && (lane_of(p->hand[o], p->trump) & known)) return 1;
    return 0;
}

/* normal/licensing.py ``draw_spent``: ruffing a side suit led, the trumps of ``legal`` whose play leaves the side's
 * trumps in the hands it sees unable to draw every trump out on any layout (as ``draws_first``), where they could
 * before and another of his trumps keeps them able */
static u64 draw_spent(const Pos *p, const WRules *r, int turn, u64 legal) {
    if (!r->draw || !p->n || p->trump < 0 || (p->tc[0] >> 4) == p->trump) return 0;
    u64 tr = lane_of(legal, p->trump), theirs = opp_lane(p, r, p->trump);
    if (!tr || !theirs) return 0;
    u64 above = ~((top_bit(theirs) << 1) - 1), spent = 0;
    int n = popcount(theirs);
    for (u64 drop = 0, l = tr;; drop = l & -l, l &= l - 1) {  /* nothing dropped first, then each trump of ``legal`` */
        int masters = 0, longest = 0;
        for (int s = r->side; s < 4; s += 2)
            if (r->seen >> s & 1) {
                u64 ls = lane_of(p->hand[s], p->trump) & ~(s == turn ? drop : 0);
                masters += popcount(ls & above);
                if (popcount(ls) > longest) longest = popcount(ls);
            }
        int draws = masters >= n && longest >= n;
        if (!drop && !draws) return 0;
        if (drop && !draws) spent |= drop;
        if (!l) break;
    }
    return spent == tr ? 0 : spent << (16 * p->trump);
}

/* normal/licensing.py ``safety_check``: a restricted seat on lead, its viewer unaware of a trump an opponent holds, holding a
 * trump above all of theirs, checks with its highest trump (ACBL Tech Files 1992 C): that card's code (-1: none) */
static int safety_check(const Pos *p, const WRules *r, int turn) {
    if (p->n || p->trump < 0 || !r->safety || !(r->restricted >> turn & 1)) return -1;
    u64 theirs = lane_of(p->hand[r->side ^ 1] | p->hand[r->side ^ 3], p->trump);
    u64 mine = lane_of(p->hand[turn], p->trump);
    if (!(theirs & lane_of(r->blind, p->trump)) || top_bit(mine) <= top_bit(theirs)) return -1;
    return 16 * p->trump + 63 - __builtin_clzll(mine);
}

/* draw_trumps_first's restriction (``draws_first``, ``draw_spent``): the cards of ``lic`` and ``dd`` outside ``keep`` are
 * dropped where some card of either is kept (0: no restriction); ``*sdd`` is -1 where no best-play card is kept (then
 * no line here has best play's count) */
static inline void keep_only(u64 keep, u64 *lic, u64 *dd, u64 *allowed, int *sdd) {
    if (!keep || !((*lic | *dd) & keep)) return;
    if (*dd && !(*dd & keep)) *sdd = -1;
    *lic &= keep;
    *dd &= keep;
    *allowed = *lic;
}

/* the claiming side's moves at a node: one card per run of equal normal cards (runs split where another hand's
 * or the trick's card lies between, or at the nine-ten boundary, as Searcher.distinct), deviations first, then
 * best play, each lowest first. ``*sdd``: the side's double-dummy tricks here (-1 when not worked out, as when
 * every legal card is licensed). Only licensed cards are tried when no card outside the licences is best play.
 * ``layout``: W's rank-relative layout at a trick start (the cache's key there), else NULL. Returns the number of
 * moves. */
static int side_moves(const WPos *w, int turn, const WRules *r, const u64 *layout, int *moves, int *sdd, int beta) {
    const Pos *p = &w->p;
    WRules own;
    r = seat_rules(r, turn, &own);  /* the licences and ties of the seat to move read its own view */
    u64 legal = legal_of(p, turn);
    u64 others = others_of(p, turn);
    int rem = popcount(p->hand[turn]);
    int check = safety_check(p, r, turn);
    if (check >= 0) {  /* his one card: no best play beside it, no count from it */
        *sdd = -1;
        moves[0] = check;
        return 1;
    }
    u64 unaware = r->unaware & (p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3]);
    u64 lic = (r->restricted >> turn & 1) ? wlicences(w, turn, r) & legal : 0;
    u64 allowed = lic, dd = 0;
    /* bound to draw trumps first: of the licensed and best-play cards only the trumps and the side-suit cards no trump
     * he knows of can in fact ruff (``ruff_now``) or whose ruff partner overruffs (``ruff_safe``), unless none is one */
    u64 tl = 0;
    if ((r->restricted >> turn & 1) && draws_first(p, r, turn)) {
        tl = LANE << (16 * p->trump);
        for (int x = 0; x < 4; x++)
            if (x != p->trump && (ruff_safe(w, r, turn, x) || !ruff_now(p, r, turn, x))) tl |= LANE << (16 * x);
    }
    /* ruffing, a trump whose play spends the draw is dropped where another keeps it (``draw_spent``) */
    u64 sp = (r->restricted >> turn & 1) ? draw_spent(p, r, turn, legal) : 0;
    *sdd = -1;
    uint32_t tw = 0;
    u64 dk[2], all = 0, lens = 0;
    DEntry *de = NULL;
    if (legal & ~lic) {
        dkey(p, layout, dk, &tw, &all, &lens);
        de = dslot(dk, tw, p->trump);
        if (!dholds(de, dk, tw, p->trump) || (!de->exact && de->ns < beta)) de = NULL;  /* a bound too low: again */
    }
    if (de != NULL) {  /* solved before */
        dd = from_order(de->dd, legal, all);
        *sdd = de->ns;
        keep_only(tl, &lic, &dd, &allowed, sdd);
        if (sp) keep_only(~sp, &lic, &dd, &allowed, sdd);
        if (dd & ~lic) {
            dd = narrow(w, r, turn, dd, legal);
            allowed |= dd;
        }
    } else if (legal & ~lic) {  /* some legal card is not licensed: which are best play? */
        int ns, exact;
        BEntry *be = best_entry(lens, dk, tw, p->trump, beta);
        if (be != NULL && !check_best) {  /* a position like it solved before */
            dd = scatter(be->best, p->hand[turn]) & legal;
            ns = be->ns;
            exact = be->exact;
            best_matches++;
            work += MATCH_WORK;  /* budgets count work: a match is charged about what it costs */
        } else {
            int runs[16], lows[16];
            unsigned best;
            int k = gen_runs(p, turn, legal, runs, lows, 0);
            brel = 0;
            /* a long position: our solver within ``long_cap`` positions, else DDS (``long_best``) */
            unsigned long long outer = work_limit, cap = work + (unsigned long long)long_cap;
            int capped = long_solver != NULL && rem >= long_tricks && !wgave_up && (!outer || cap < outer);
            if (capped) work_limit = cap;
            /* guess from the last position solved: the side's tricks fell by at most the tricks since */
            if (capped && !long_cap) wgave_up = 1;  /* no cap: DDS at once */
            else ns = best_runs(p, turn, runs, k, beta, last_ns - (last_rem - rem), &best, &exact);
            int by_dds = 0;
            if (capped) {
                work_limit = outer;
                if (wgave_up && !(outer && work > outer)) {  /* our cap, not the search's limit: DDS answers */
                    wgave_up = 0;
                    by_dds = 1;
                    ns = long_best(p, legal, &dd);
                    exact = 1;
                }
            }
            last_ns = ns;
            last_rem = rem;
            if (!by_dds)
                for (int i = 0; i < k; i++)
                    if (best >> i & 1) dd |= run_below(runs[i], legal, others);
            if (by_dds) {
                /* DDS's set rests on no known subset of the cards: no partition entry */
            } else if (be != NULL && !wgave_up) {  /* checking: the stored set against this solve */
                u64 sd = scatter(be->best, p->hand[turn]) & legal;
                int bad = sd != dd || (be->exact && exact && be->ns != ns) || (be->exact && !exact && be->ns < ns)
                          || (!be->exact && exact && be->ns > ns);
                best_matches++;
                best_bad += bad;
            } else if (!wgave_up) {
                for (int i = 0; i < p->n; i++) brel |= 1ULL << p->tc[i];
                if (!exact)  /* "the one run that can reach the value": a fact about runs, so this run is kept whole */
                    for (int i = 0; i < k; i++)
                        if (best >> i & 1) brel |= 1ULL << runs[i] | 1ULL << lows[i];
                /* a run with its top card at or above the lowest card kept in its suit is kept whole: above it, the
                 * cards between the run's are the same in a matching position, so the run is too; a run wholly below
                 * stands for every low card of the mover's in the suit (the positions after any of them match) */
                for (int changed = 1; changed;) {
                    changed = 0;
                    for (int i = 0; i < k; i++) {
                        u64 kept = lane_of(brel, runs[i] >> 4);
                        int cut = kept ? 16 * (runs[i] >> 4) + __builtin_ctzll(kept) : 64;
                        if (runs[i] >= cut && lows[i] < cut) {
                            brel |= 1ULL << lows[i];
                            changed = 1;
                        }
                    }
                }
                best_store(lens, dk, tw, p->trump, rel_counts_in(all, brel), dd, p->hand[turn], ns, exact);
            }
        }
        if (!wgave_up) {
            DEntry *e = dslot(dk, tw, p->trump);
            memcpy(e->k, dk, sizeof e->k);
            e->t = tw;
            e->dd = to_order(dd, all);
            e->ns = (int8_t)ns;
            e->exact = (uint8_t)exact;
            e->trump = (int8_t)p->trump;
            e->rem = (int8_t)rem;
            e->used = question;
        }
        *sdd = ns;
        keep_only(tl, &lic, &dd, &allowed, sdd);
        if (sp) keep_only(~sp, &lic, &dd, &allowed, sdd);
        if (dd & ~lic) {
            dd = narrow(w, r, turn, dd, legal);
            allowed |= dd;
        }
    } else {  /* every legal card licensed */
        if (tl && (lic & tl)) allowed = lic & tl;
        if (sp && (allowed & ~sp)) allowed &= ~sp;
    }
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {  /* deviations (not best play) first, then best play */
        u64 set = pass ? allowed & dd : allowed & ~dd;
        for (int x = 0; x < 4; x++) {
            u64 l = lane_of(set, x), o = lane_of(others, x);
            int prev = -1;
            while (l) {
                int rk = __builtin_ctzll(l);
                l &= l - 1;
                int same = prev >= 0 && !((o >> (prev + 1)) & ((1ULL << (rk - prev - 1)) - 1))
                           && (prev <= 9) == (rk <= 9) && !(lane_of(unaware, x) & (1ULL << rk | 1ULL << prev));
                prev = rk;
                if (!same) moves[n++] = 16 * x + rk;  /* a card equal to the one below it is the same move */
            }
        }
    }
    return n;
}

/* the table's key at a trick start: the rank-relative layout, how many cards of each suit are tens or higher (the
 * small-card licence reads them; only in a suit both hands of the side hold, and not in trumps once the opponents
 * hold none: else, now and later, the leader's masters there are equal cards, or trump leads are licensed by
 * nothing (they are idle), and the licence gives nothing top-down does not), the suit to continue (while it can
 * still bind the side: on lead, only with a master in it; with the opponents on lead, whenever the side holds a
 * card of it, since theirs above it may all be played before the side leads again) and the opponents' show-outs
 * in suits where a guess can still arise (the only licence that reads them).
 *
 * The tens are counted only where a hand of the side holds two or more cards of the suit below the ten; elsewhere
 * the key says so (7, not a count). The licence gives a hand's small masters only when they are all its masters,
 * so with at most one small card it gives its top master, which top-down gives anyway, and a hand never gains a
 * card: that stays so for the rest of the play. Measured on the 7NT finesse-only seed: the count split the
 * positions W stored 2.4 times over the rank-relative layouts. The suit to continue is dropped, too, when the side
 * is on lead from a hand without a card of it. */
static inline void wkey(const WPos *w, const WRules *r, u64 key[3]) {
    const Pos *p = &w->p;
    rel_key(p, key);
    u64 all = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3], extra = 0;
    u64 opp = against(p, r);
    /* the hands whose show-outs he reads: the hidden ones (View.may_hold) and the opponents (the guess's "shown out") */
    int vseats = r->hid | 1 << (r->side ^ 1) | 1 << (r->side ^ 3);
    int vmask = 0;
    for (int x = 0; x < 4; x++) {
        u64 l = lane_of(all, x);
        u64 a = lane_of(p->hand[r->side], x), b = lane_of(p->hand[r->side ^ 2], x);
        /* (and in a suit with a card he is unaware of: his masters there need not be equal cards) */
        if ((a && b && !(x == p->trump && !lane_of(opp, x))) || lane_of(r->unaware & all, x)) {
            int small = r->equal_small && (popcount(a & 0x3FF) >= 2 || popcount(b & 0x3FF) >= 2);
            extra |= (u64)(small ? popcount(l >> 10) : 7) << (3 * x);
        }
        /* the view reads those show-outs in every suit an opponent may still hold cards of, as he sees it */
        if (lane_of(opp, x))
            for (int s = 0; s < 4; s++)
                if (vseats >> s & 1) vmask |= 1 << (4 * s + x);
    }
    int last = w->last;
    /* with the side on lead the obligation is read now, and its lead names the suit to continue next; with the
     * opponents on lead, a card of the side's in the suit may yet become a master (theirs above it played before
     * the side leads again), and the obligation holds then */
    WRules own;  /* the side on lead: its obligation is read in the leader's view */
    if (last >= 0 && !(r->continue_suit && ((p->leader & 1) == r->side
                                                ? side_master(p, seat_rules(r, p->leader, &own), last)
                                                : lane_of(p->hand[r->side] | p->hand[r->side ^ 2], last) != 0)))
        last = -1;
    /* a leader of the side without a card of it is not held to it, and his lead names the next suit to continue */
    if (last >= 0 && (p->leader & 1) == r->side && !lane_of(p->hand[p->leader], last)) last = -1;
    extra |= (u64)(last + 1) << 12;
    extra |= (u64)(w->voids & vmask) << 15;
    /* the concession licence and the ties: the conceded tricks still to lose while the side has not led since */
    extra |= (u64)conceding(w, r) << 31;
    key[2] = extra;
}

/* the cards he is unaware of still out, added to W's key at a trick start (the layout is rank-relative: which of its
 * cards he does not know of): each as its suit and its place from the top of the suit's cards, six bits apiece from
 * bit 35, as ``Searcher.key`` marks them. 0 when more than four are out: the caller keeps no entry */
static inline int ukey(const WPos *w, const WRules *r, u64 key[3]) {
    const Pos *p = &w->p;
    u64 all = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3], u = r->unaware & all;
    if (popcount(u) > 4) return 0;
    for (int sh = 35; u; u &= u - 1, sh += 6) {
        int c = __builtin_ctzll(u);
        key[2] |= (u64)((c >> 4) << 4 | (order_of(all, c) + 1)) << sh;
    }
    return 1;
}

static inline int wholds(const WEntry *e, const u64 key[3], uint32_t tag) {
    return e->used == question && e->tag == tag && e->k[0] == key[0] && e->k[1] == key[1] && e->k[2] == key[2];
}

/* a key's entry of its slot pair (two-way, as ``slot``) */
static inline WEntry *wslot(const u64 key[3], uint32_t tag) {
    u64 h = mix(hash_of(key, (int)(tag & 0xFFFF), (int)(tag >> 16)) ^ key[2]);
    u64 i = h >> (64 - WTT_BITS);
    WEntry *a = &wtt[i], *b = &wtt[i ^ 1];
    if (wholds(a, key, tag)) return a;
    if (wholds(b, key, tag)) return b;
    return victim(a->used, a->rem, b->used, b->rem) ? b : a;
}

/* ---- floors where the side must take every trick left ----
 * While the opponents hold no trump, an opponent's card of a suit below every card the side holds there (the suit's
 * "tail"; a whole suit when the side holds none of it) decides no trick the side wins: a card of the side beats it,
 * and a suit the side holds none of is led only by the opponents, who lead only after winning a trick. So on every
 * line on which the side takes all the tricks, the tail cards are played and never compared with each other, and the
 * licences and best play read them only through each opponent's lengths. Hence whether some normal line loses a trick
 * is the same for two positions that differ only in which opponent holds which tail card, lengths kept: the side's
 * "all of them" floor is stored under a key with each suit's tail sorted (one opponent's cards first), and an
 * opponent's tail cards of one suit are one move while the side must win the trick in progress. Measured on the 7♠
 * example, whose proof is all such positions: the sorted key merges 482,000 stored layouts into 265,000. */
#define WTAG_ALL (1u << 17)  /* a floor of every trick left, under the sorted key */

/* do the opponents hold no trump and have played none to the trick in progress? */
static inline int opp_trumpless(const Pos *p, int side) {
    if (p->trump < 0) return 1;
    if (lane_of(p->hand[side ^ 1] | p->hand[side ^ 3], p->trump)) return 0;
    for (int i = 0; i < p->n; i++)
        if ((((p->leader + i) & 3) & 1) != side && (p->tc[i] >> 4) == p->trump) return 0;
    return 1;
}

/* ``key`` (wkey's) with each suit's tail sorted: below the side's lowest card of the suit, the codes of the opponent
 * after the side (side ^ 1: the high bit of its two is 0) first, then those of the other (high bit 1). A code's low bit
 * is its seat's side, so the tail is found and rewritten with masks, no loop over the cards (a loop was a fifth of
 * the time per position on the 7NT spade guess) */
static inline u64 tail_sorted_suit(u64 s, int side) {
    int n = (int)(s & 15);
    if (!n) return s;
    u64 valid = (0xFFFFFFFFULL << (32 - 2 * n)) & 0xFFFFFFFFULL;
    u64 mine = (side ? s : ~s) & 0x55555555ULL & valid;  /* the low bits of the side's codes */
    u64 tail = valid & (mine ? (1ULL << __builtin_ctzll(mine)) - 1 : 0xFFFFFFFFULL);
    u64 highs = tail & 0xAAAAAAAAULL;
    int c = popcount(s & highs);
    return (s & ~highs) | ((((1ULL << (2 * c)) - 1) << (32 - 2 * n)) & 0xAAAAAAAAULL);
}

static inline void tail_sorted(const u64 key[3], int side, u64 out[3]) {
    out[2] = key[2];
    for (int wi = 0; wi < 2; wi++)
        out[wi] = tail_sorted_suit(key[wi] >> 32, side) << 32 | tail_sorted_suit(key[wi] & 0xFFFFFFFFULL, side);
}

/* an opponent's moves (one per run) with the tail cards of each suit down to one: the side's cards in hand and in the
 * trick set the tails (see above); for use only while the side must win every trick and the opponents hold no trump */
static int merge_tails(const Pos *p, int side, int *moves, int k) {
    u64 ours = p->hand[side] | p->hand[side ^ 2];
    for (int i = 0; i < p->n; i++)
        if ((((p->leader + i) & 3) & 1) == side) ours |= 1ULL << p->tc[i];
    int seen = 0, n = 0;
    for (int i = 0; i < k; i++) {
        int c = moves[i], x = c >> 4;
        u64 l = lane_of(ours, x);
        if (!l || (c & 15) < __builtin_ctzll(l)) {
            if (seen >> x & 1) continue;
            seen |= 1 << x;
        }
        moves[n++] = c;
    }
    return n;
}

typedef struct {
    Undo u;
    int last, voids, lost;
} WUndo;

static inline int wplay(WPos *w, int turn, int c, WUndo *u, int side) {
    u->last = w->last;
    u->voids = w->voids;
    u->lost = w->lost;
    if (w->p.n == 0 && (turn & 1) == side) w->last = c >> 4;
    else if (w->p.n && (c >> 4) != (w->p.tc[0] >> 4)) w->voids |= 1 << (4 * turn + (w->p.tc[0] >> 4));
    int won = play(&w->p, turn, c, &u->u);
    if (won >= 0 && (won & 1) != side && w->lost < 15) w->lost++;
    return won;
}

static inline void wunplay(WPos *w, int turn, int c, const WUndo *u) {
    unplay(&w->p, turn, c, &u->u);
    w->last = u->last;
    w->voids = u->voids;
    w->lost = u->lost;
}

/* stores floor ``lo`` into ``e`` (wslot's for ``key``, ``tag``) unless it holds one as good */
static inline void wstore(WEntry *e, const u64 key[3], uint32_t tag, int lo, int rem) {
    if (wholds(e, key, tag) && e->lo >= lo) return;
    memcpy(e->k, key, sizeof e->k);
    e->tag = tag;
    e->lo = (int8_t)lo;
    e->rem = (int8_t)rem;
    e->used = question;
}

/* the line a search found: the cards from the root to the point where best play takes over (``rec_len`` of them;
 * from there, best play within the model gives the count: a double-dummy shortcut, a sweep or the last trick) */
static int rec[64], rec_len;

/* Searcher.runs: a card he is unaware of is a run of its own (which of two cards is played changes what he knows): an
 * opponent's moves (one per run: ``gen_moves``) with each run split at such cards (``unaware``) */
static int split_unaware(const Pos *p, int turn, u64 legal, u64 unaware, int *moves, int k) {
    if (!(legal & unaware)) return k;
    u64 others = others_of(p, turn);
    int out[16], n = 0;
    for (int i = 0; i < k; i++) {
        u64 run = run_below(moves[i], legal, others);
        if (!(run & unaware)) {
            out[n++] = moves[i];
            continue;
        }
        int x = moves[i] >> 4, prev = -1;
        u64 l = lane_of(run, x), ul = lane_of(unaware, x);
        while (l) {  /* from the top down */
            int b = 63 - __builtin_clzll(l);
            l ^= 1ULL << b;
            if (prev < 0 || (ul >> b & 1) || (ul >> prev & 1)) out[n++] = 16 * x + b;
            prev = b;
        }
    }
    memcpy(moves, out, sizeof(int) * (size_t)n);
    return n;
}

/* The fewest tricks ``side`` takes from here on the normal lines, as a bounded minimum: below ``beta`` it is the
 * count of a line (the first found under ``beta``), otherwise no line goes under it. */
static int wmin(WPos *w, const WRules *r, int beta, int ply) {
    Pos *p = &w->p;
    int turn = (p->leader + p->n) & 3;
    int rem = popcount(p->hand[turn]);
    int side = r->side;
    if (beta <= 0) return 0;
    if (rem == 0) { rec_len = ply; return 0; }
    work++;
    if (work_limit && work > work_limit) wgave_up = 1;
    if (wgave_up) return 0;  /* as if a line were found: the search unwinds at once, storing nothing */
    WEntry *e = NULL;
    u64 key[3], akey[3];
    u64 unaware = r->unaware & (p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3]);
    int all_ok = 0, keyed = 1;
    uint32_t tag = (uint32_t)(p->leader | side << 2 | r->restricted << 3 | (p->trump + 1) << 7 | r->suit_order << 10
                              | r->continue_suit << 11 | r->top_down << 12 | r->equal_small << 13 | r->ruff_low << 14
                              | r->guess << 15 | r->concedes << 16 | (uint32_t)r->seen << 18
                              | (uint32_t)r->conceded << 22 | (uint32_t)r->draw << 26);
    if (p->n == 0) {
        if (rem == 1) { rec_len = ply; return (last_trick(p) & 1) == side; }
        if (sweeps(p, side) || hand_sweeps(p, side)) { rec_len = ply; return rem; }
        int tf = trump_floor(p, side);
        if (tf >= beta) return tf;
        wkey(w, r, key);
        keyed = ukey(w, r, key);
        /* (not while he is unaware of a card out: which opponent holds it changes what he sees) */
        all_ok = opp_trumpless(p, side) && !unaware;
        if (keyed && (beta < rem || !all_ok)) {
            e = wslot(key, tag);
            /* only floors are kept: a line's count is of no use without its cards */
            if (wholds(e, key, tag) && e->lo >= beta) return e->lo;
        }
        if (all_ok) {
            /* a floor of all of them, stored for a position with the same sorted tails (looked at after the exact
             * layout's entry when fewer are needed: probing both at every trick start cost more than it saved) */
            tail_sorted(key, side, akey);
            WEntry *a = wslot(akey, tag | WTAG_ALL);
            if (wholds(a, akey, tag | WTAG_ALL)) return rem;
        }
    }
    int moves[16], k;
    int mine = (turn & 1) == side;
    if (mine) {
        int sdd;
        k = side_moves(w, turn, r, p->n == 0 ? key : NULL, moves, &sdd, beta);
        if (sdd >= 0 && sdd < beta) {  /* best play within the model gives the double-dummy count: a line */
            rec_len = ply;
            return sdd;
        }
    } else {
        u64 legal = legal_of(p, turn);
        k = split_unaware(p, turn, legal, unaware, moves, gen_moves(p, turn, legal, moves));
        if (beta >= rem && opp_trumpless(p, side) && !unaware) k = merge_tails(p, side, moves, k);
    }
    int best = 99;
    for (int j = 0; j < k && best >= beta; j++) {
        WUndo u;
        int wn = wplay(w, turn, moves[j], &u, side);
        int won = wn >= 0 && (wn & 1) == side;
        int v = won + wmin(w, r, beta - won, ply + 1);
        wunplay(w, turn, moves[j], &u);
        if (v < best) best = v;
        if (v < beta) rec[ply] = moves[j];
    }
    if (p->n == 0 && !wgave_up && best >= beta) {
        if (all_ok && best >= rem) wstore(wslot(akey, tag | WTAG_ALL), akey, tag | WTAG_ALL, rem, rem);
        else if (e != NULL) wstore(e, key, tag, best, rem);  /* fewer than all were needed, or an opponent holds a trump */
    }
    return best;
}

/* a call's rules: the side, its restricted seats, and the flags (a bit per licence in force, LIC_* in _licences.h,
 * written from the table of licences; from LIC_SEEN_SHIFT a bit per hand the claimer sees, none given: the side's
 * two, a declarer's view; from LIC_CONCEDED_SHIFT the tricks the claim concedes) */
static WRules wrules(int side, int restricted, int flags) {
    WRules r = {side & 1, restricted & 15, flags >> LIC_ANY_SUIT_ORDER & 1, flags >> LIC_CONTINUE_SUIT & 1,
                flags >> LIC_TOP_DOWN & 1, flags >> LIC_EQUAL_SMALL_ANY & 1, flags >> LIC_RUFF_LOW & 1,
                flags >> LIC_FINESSE_OR_DROP & 1, flags >> LIC_CONCEDE_NOW_OR_END & 1, flags >> LIC_CONCEDED_SHIFT & 15,
                flags >> LIC_SEEN_SHIFT & 15, 0, 0, -1, 0, 0, 0, 0, 0};
    int ours = 1 << r.side | 1 << (r.side ^ 2), theirs = 15 & ~ours;
    if (!r.seen) r.seen = ours;
    r.hid = 15 & ~r.seen;
    r.agst = r.hid | (r.seen & theirs);
    r.cseen = r.seen;
    r.cagst = r.agst;
    r.draw = flags >> LIC_DRAW_TRUMPS_FIRST & 1;
    r.unaware_winner = flags >> LIC_UNAWARE_WINNER & 1;
    r.safety = flags >> LIC_SAFETY_CHECK_HIGH_TRUMP & 1;
    /* a defender's claim (he sees one hand of his side: his own): his partner sees that and his own hand. The view
     * follows from ``seen``, so the table's tag (which holds ``seen``) tells the claims apart */
    int mine = r.seen & ours;
    if (mine && mine != ours) {
        r.pseat = (mine == 1 << r.side ? r.side : r.side ^ 2) ^ 2;
        r.pseen = r.seen | 1 << r.pseat;
        r.phid = 15 & ~r.pseen;
        r.pagst = r.phid | (r.pseen & theirs);
    }
    return r;
}

/* the claimer unaware of the cards ``unaware`` (view.py: those in hands he does not see are out of his view) */
static void unaware_view(WRules *r, const Pos *p, u64 unaware) {
    r->unaware = r->blind = unaware & (p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3]);
    r->vblind = r->cblind = r->unaware & hands_in(p, r->hid);
}

/* fills ``p`` from a call's hands, trump, leader and trick tuple: 0, or -1 with a Python error set */
static int read_pos(Pos *p, const unsigned long long m[4], int trump, int leader, PyObject *trick) {
    for (int i = 0; i < 4; i++) p->hand[i] = m[i];
    p->trump = trump;
    p->leader = leader & 3;
    p->n = (int)PyTuple_GET_SIZE(trick);
    if (p->n > 3) {
        PyErr_SetString(PyExc_ValueError, "a trick in progress has at most three cards");
        return -1;
    }
    for (int i = 0; i < p->n; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(trick, i));
        if (c < 0 || c > 63) {
            PyErr_SetString(PyExc_ValueError, "a card code is 0..63");
            return -1;
        }
        p->tc[i] = (int)c;
    }
    return 0;
}

/* values(m0, m1, m2, m3, trump, leader, trick) -> {Card: tricks for the side to move} */
static PyObject *py_values(PyObject *self, PyObject *args) {
    unsigned long long m[4];
    int trump, leader;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "KKKKiiO!", &m[0], &m[1], &m[2], &m[3], &trump, &leader, &PyTuple_Type, &trick))
        return NULL;
    Pos p;
    if (read_pos(&p, m, trump, leader, trick) < 0) return NULL;
    int turn = (p.leader + p.n) & 3;
    int total = popcount(p.hand[turn]);
    u64 legal = legal_of(&p, turn);
    if (!total) { PyErr_SetString(PyExc_ValueError, "the seat to move has no card"); return NULL; }
    int moves[16];
    int k = gen_moves(&p, turn, legal, moves);
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    u64 others = others_of(&p, turn);
    int guess = total / 2;
    unsigned long long work_before = work;  /* the search's own solver calls are not the floors' work */
    for (int i = 0; i < k; i++) {
        int c = moves[i];
        Pos q = p;
        Undo u;
        int w = play(&q, turn, c, &u);
        int won = w >= 0 && !(w & 1);
        int v = won + exact(&q, guess - won);
        guess = v;
        int score = (turn & 1) ? total - v : v;
        /* the card and every card below it that it is equal to (see gen_moves) */
        int x = c >> 4;
        for (int r = c & 15; r >= 2; r--) {
            int code = 16 * x + r;
            if (r != (c & 15)) {
                if ((others >> code) & 1) break;
                if (!((legal >> code) & 1)) continue;
            }
            PyObject *val = PyLong_FromLong(score);
            if (val == NULL || card_objs[code] == NULL || PyDict_SetItem(out, card_objs[code], val) < 0) {
                Py_XDECREF(val);
                Py_DECREF(out);
                work = work_before;
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no Card object for a code");
                return NULL;
            }
            Py_DECREF(val);
        }
    }
    work = work_before;
    return out;
}

/* fewest(m0, m1, m2, m3, trump, leader, trick, side, above=-1) -> the fewest tricks side (0 NS, 1 EW) can
 * take; with ``above`` >= 0, whether that is more than ``above`` (a cheaper question) */
static PyObject *py_fewest(PyObject *self, PyObject *args) {
    unsigned long long m[4];
    int trump, leader, side, above = -1;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "KKKKiiO!i|i", &m[0], &m[1], &m[2], &m[3], &trump, &leader, &PyTuple_Type, &trick,
                          &side, &above))
        return NULL;
    Pos p;
    if (read_pos(&p, m, trump, leader, trick) < 0) return NULL;
    Rules r = {side & 1, 0, 0, 0, 0, 0, 0, 1};
    effort = -1;
    gave_up = 0;
    if (above >= 0) {  /* is the fewest above ``above``? */
        Pos q = p;
        return PyBool_FromLong(floor_rules(&q, &r, above + 1) > above);
    }
    int v = 0;  /* the exact count: the least b with a line under b + 1 */
    for (;;) {
        Pos q = p;
        if (floor_rules(&q, &r, v + 1) <= v) break;
        v++;
    }
    return PyLong_FromLong(v);
}

/* floor(m0, m1, m2, m3, trump, leader, trick, side, restricted, flags, above, limit=0) -> whether the
 * side takes more than ``above`` on every line where its restricted seats play only best-play or licensable
 * cards (see ``floor_rules``; ``flags`` as ``worst``'s: the bits of _licences.h); with ``limit`` > 0 the search
 * visits at most that many positions, and says no when it has not settled the question by then */
static PyObject *py_floor(PyObject *self, PyObject *args) {
    unsigned long long m[4];
    int trump, leader, flags, above;
    long limit = 0;
    Rules r;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "KKKKiiO!iiii|l", &m[0], &m[1], &m[2], &m[3], &trump, &leader, &PyTuple_Type,
                          &trick, &r.side, &r.restricted, &flags, &above, &limit))
        return NULL;
    Pos p;
    if (read_pos(&p, m, trump, leader, trick) < 0) return NULL;
    r.side &= 1;
    r.restricted &= 15;
    /* any master may be led, not only the top one: equal small cards in any order, or no top-down rule */
    r.all_masters = (flags >> LIC_EQUAL_SMALL_ANY & 1) || !(flags >> LIC_TOP_DOWN & 1);
    r.concedes = flags >> LIC_CONCEDE_NOW_OR_END & 1;
    r.ruff_low = flags >> LIC_RUFF_LOW & 1;
    r.finesse = flags >> LIC_FINESSE_OR_DROP & 1;
    r.suit_order = flags >> LIC_ANY_SUIT_ORDER & 1;
    r.all_free = 0;
    effort = limit > 0 ? limit : -1;
    gave_up = 0;
    int v = floor_rules(&p, &r, above + 1);
    return PyBool_FromLong(!gave_up && v > above);
}

/* worst(m0, m1, m2, m3, trump, leader, trick, last, voids, side, restricted, flags, below, dd, limit, unaware)
 *   -> (count, settled, line)
 * W from the position (``flags``: ``wrules``'s, the bits of _licences.h; the guess licence's bit when no 70E2 order
 * settles the guess, the concession licence's when the claim concedes a trick), lowered from the double-dummy count
 * (``dd``, the side's; -1: worked out here, and a count of -1 returned if that does not finish within the limit) while a line goes under it; with
 * ``below`` >= 0, only whether a line goes under ``below`` (the first found). ``limit`` > 0: give up after that many
 * positions (``settled`` False; the count is the least line found). ``line``: the codes of the cards of that line
 * up to where best play within the model (the side's best-play cards as narrowed, the opponents' best play) takes
 * over and gives the count; empty when no line under the double-dummy count was found. ``unaware``: the cards the
 * claimer is found unaware of (70C: a mask; his view leaves them out, ``unaware_view``). */
static PyObject *py_worst(PyObject *self, PyObject *args) {
    unsigned long long m[4];
    int trump, leader, last, voids, side, restricted, flags, below, dd;
    long long limit = 0;
    unsigned long long unaware = 0;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "KKKKiiO!iiiiiii|LK", &m[0], &m[1], &m[2], &m[3], &trump, &leader, &PyTuple_Type,
                          &trick, &last, &voids, &side, &restricted, &flags, &below, &dd, &limit, &unaware))
        return NULL;
    WPos w;
    if (read_pos(&w.p, m, trump, leader, trick) < 0) return NULL;
    w.last = last >= 0 && last < 4 ? last : -1;
    w.voids = voids & 0xFFFF;
    w.lost = flags >> LIC_LOST_SHIFT & 15;
    WRules r = wrules(side, restricted, flags);
    unaware_view(&r, &w.p, unaware);
    int turn = (w.p.leader + w.p.n) & 3;
    int rem = popcount(w.p.hand[turn]);
    if (!rem) return Py_BuildValue("(iO[])", 0, Py_True);
    int settled = 1, path[64], path_len = 0;
    work_limit = limit > 0 ? work + (unsigned long long)limit : 0;
    wgave_up = 0;
    long_failed = 0;
    int ub = dd;  /* best play within the model reaches the double-dummy count */
    if (ub < 0 || ub > rem) {
        Pos q = w.p;
        int ns = exact(&q, rem / 2);
        ub = r.side ? rem - ns : ns;
        if (wgave_up) {  /* not even that within the limit */
            work_limit = 0;
            wgave_up = 0;
            return Py_BuildValue("(iO[])", -1, Py_False);
        }
    }
    while (ub > 0) {
        if (below >= 0 && ub < below) break;
        int beta = below >= 0 ? below : ub;
        WPos c = w;
        int v = wmin(&c, &r, beta, 0);
        if (wgave_up) { settled = 0; break; }
        if (v >= beta) break;  /* no line under beta */
        ub = v;
        path_len = rec_len;
        memcpy(path, rec, sizeof(int) * (size_t)rec_len);
    }
    work_limit = 0;
    wgave_up = 0;
    if (long_failed) {
        long_failed = 0;
        return NULL;
    }
    /* the line: the cards found; best play within the model from where they end gives the count */
    PyObject *line = PyList_New(path_len);
    if (line == NULL) return NULL;
    for (int i = 0; i < path_len; i++) {
        PyObject *code = PyLong_FromLong(path[i]);
        if (code == NULL) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, i, code);
    }
    return Py_BuildValue("(iON)", ub, settled ? Py_True : Py_False, line);
}

/* wkey(m0, m1, m2, m3, trump, leader, last, voids, side, flags) -> (k0, k1, k2): W's table key at a trick start
 * (``wkey``; ``flags`` as ``worst``'s), for tests */
static PyObject *py_wkey(PyObject *self, PyObject *args) {
    unsigned long long m[4];
    int trump, leader, last, voids, side, flags;
    if (!PyArg_ParseTuple(args, "KKKKiiiiii", &m[0], &m[1], &m[2], &m[3], &trump, &leader, &last, &voids, &side,
                          &flags))
        return NULL;
    WPos w;
    PyObject *none = PyTuple_New(0);
    if (none == NULL) return NULL;
    int bad = read_pos(&w.p, m, trump, leader, none);
    Py_DECREF(none);
    if (bad < 0) return NULL;
    w.last = last >= 0 && last < 4 ? last : -1;
    w.voids = voids & 0xFFFF;
    w.lost = flags >> LIC_LOST_SHIFT & 15;
    WRules r = wrules(side, 0, flags);
    u64 key[3];
    wkey(&w, &r, key);
    return Py_BuildValue("(KKK)", key[0], key[1], key[2]);
}

/* clear(): forget every table (for tests that need a search with nothing remembered) */
static PyObject *py_clear(PyObject *self, PyObject *args) {
    memset(pt, 0, sizeof(PEntry) << PT_BITS);
    memset(xt, 0, sizeof(XEntry) << XT_BITS);
    memset(gtt, 0, sizeof(Entry) << GTT_BITS);
    memset(wtt, 0, sizeof(WEntry) << WTT_BITS);
    memset(dtt, 0, sizeof(DEntry) << DTT_BITS);
    memset(bt, 0, sizeof(BEntry) << BT_BITS);
    Py_RETURN_NONE;
}

/* bit_gather(): does ``tops`` use the CPU's bit gather (BMI2)? For the test that both ways give one layout */
static PyObject *py_bit_gather(PyObject *self, PyObject *args) {
#ifdef TOPS_BMI2
    return PyBool_FromLong(have_bmi2);
#else
    Py_RETURN_FALSE;
#endif
}

/* new_question(): the next question reads only what it stores itself */
static PyObject *py_new_question(PyObject *self, PyObject *args) {
    pclock = bclock = 0;
    last_ns = last_rem = 0;  /* side_moves' first guess too, as in a fresh process */
    if (question == 255) {  /* the stamps start over: nothing stamped before may pass for the new question's */
        question = 1;
        return py_clear(self, args);
    }
    question++;
    Py_RETURN_NONE;
}

/* check_best(on) -> (matches, contradicted): with ``on``, every best-play set a position takes from a matching
 * one's (see best_entry) is also solved afresh and compared; returns the counts since the last call (for tests) */
static PyObject *py_check_best(PyObject *self, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    check_best = on;
    PyObject *out = Py_BuildValue("(KK)", best_matches, best_bad);
    best_matches = best_bad = 0;
    return out;
}

/* take_work() -> the positions the searches here have visited since the last call (the caller charges them) */
static PyObject *py_take_work(PyObject *self, PyObject *args) {
    unsigned long long w = work;
    work = 0;
    return PyLong_FromUnsignedLongLong(w);
}

/* set_long_solver(callable or None, tricks[, cap]): best play in W's search by ``callable`` from ``tricks`` cards in
 * the mover's hand where our solver does not settle it within ``cap`` positions (see ``long_best``); None: by our own
 * solver everywhere */
static PyObject *py_set_long_solver(PyObject *self, PyObject *args) {
    PyObject *f;
    int tricks;
    long long cap = 1500;
    if (!PyArg_ParseTuple(args, "Oi|L", &f, &tricks, &cap)) return NULL;
    if (f != Py_None && !PyCallable_Check(f)) {
        PyErr_SetString(PyExc_TypeError, "set_long_solver takes a callable or None");
        return NULL;
    }
    Py_XDECREF(long_solver);
    long_solver = f == Py_None ? NULL : f;
    Py_XINCREF(long_solver);
    long_tricks = tricks;
    long_cap = cap < 0 ? 0 : cap;
    Py_RETURN_NONE;
}

/* set_cards(seq): the Card object for each code 0..63 (None where there is none) */
static PyObject *py_set_cards(PyObject *self, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "set_cards takes a sequence of 64 items");
    if (seq == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 64) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "set_cards takes a sequence of 64 items");
        return NULL;
    }
    for (int i = 0; i < 64; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        Py_XDECREF(card_objs[i]);
        card_objs[i] = (o == Py_None) ? NULL : o;
        Py_XINCREF(card_objs[i]);
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"values", py_values, METH_VARARGS, "Every legal card's tricks for the side to move (see the module)."},
    {"fewest", py_fewest, METH_VARARGS, "The fewest tricks a side can take if every card is played to that end."},
    {"floor", py_floor, METH_VARARGS, "Whether a side takes more than k on every line of best-play or licensable cards."},
    {"worst", py_worst, METH_VARARGS, "W for a claimer who states no line, and a line giving it."},
    {"clear", py_clear, METH_NOARGS, "Forget every table."},
    {"wkey", py_wkey, METH_VARARGS, "W's table key at a trick start (for tests)."},
    {"bit_gather", py_bit_gather, METH_NOARGS, "Whether layouts are encoded by the CPU's bit gather (BMI2)."},
    {"new_question", py_new_question, METH_NOARGS, "The tables hold nothing the next question reads."},
    {"check_best", py_check_best, METH_O, "Check every best-play set taken from a matching position (tests)."},
    {"take_work", py_take_work, METH_NOARGS, "Positions visited by the searches here since the last call."},
    {"set_cards", py_set_cards, METH_O, "The Card object for each code 0..63."},
    {"set_long_solver", py_set_long_solver, METH_VARARGS, "Best play in long positions of W's search by a callable."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_endings",
                                    "The play core's own solver: short endings, floors, and W.", -1, methods};

/* a zeroed table on 2 MiB pages where the system gives them: the tables are read at random, and on 4 KiB pages
 * most reads also missed the address cache (the first load of a table entry took a quarter of ``ab``'s time) */
static void *big_table(size_t n, size_t size) {
    size_t bytes = n * size, align = (size_t)1 << 21;
    void *t = NULL;
    if (posix_memalign(&t, align, (bytes + align - 1) / align * align) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(t, bytes, MADV_HUGEPAGE);
#endif
    memset(t, 0, bytes);
    return t;
}

PyMODINIT_FUNC PyInit__endings(void) {
#ifdef TOPS_BMI2
    __builtin_cpu_init();
    have_bmi2 = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") && !getenv("CLAIMLAW_NO_BMI2");
#endif
    pt = big_table((size_t)1 << PT_BITS, sizeof(PEntry));
    xt = big_table((size_t)1 << XT_BITS, sizeof(XEntry));
    gtt = big_table((size_t)1 << GTT_BITS, sizeof(Entry));
    wtt = big_table((size_t)1 << WTT_BITS, sizeof(WEntry));
    dtt = big_table((size_t)1 << DTT_BITS, sizeof(DEntry));
    bt = big_table((size_t)1 << BT_BITS, sizeof(BEntry));
    if (pt == NULL || xt == NULL || gtt == NULL || wtt == NULL || dtt == NULL || bt == NULL) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
