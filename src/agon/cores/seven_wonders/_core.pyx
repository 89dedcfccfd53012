# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# stays whole: one compiled module whose cdef functions inline into each other; split into
# several extension modules, the hot loop would call across them through function pointers.
"""C core of the 7 Wonders engine, a line-by-line mirror of ``agon.games.seven_wonders.engine``.

Everything in the hot loop is C: structs of ints, fixed arrays, bitsets, no Python objects.
The Mersenne Twister and the few ``random.Random`` methods the engine and the heuristic bot use
(seeding from an int, ``random``, ``getrandbits``-based ``_randbelow``, ``choice``, ``shuffle``,
``sample``) are reimplemented bit for bit after CPython 3.11, and the random bot's SplitMix64
(``bots.base.SplitMix64``) too, so that one seed plays the same game here and in the Python
engine.  Card and wonder data are loaded from agon's data files by
:func:`load_tables` (rules as data: nothing about cards is written here).

Not covered (the Python engine handles them): withdrawal, illegal-play policies (random legal
play never plays illegally), observations and the action text form.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.math cimport INFINITY, log, sqrt
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memmove, memset

# ---------------------------------------------------------------------- sizes and codes
cdef enum:
    MT_N = 624
    MT_M = 397
    MAXCARDS = 128        # card indices
    MAXBLD = 128          # building indices (bitset of 2 words)
    MAXCITY = 48          # cards in one city
    MAXCH = 24            # either/or productions of one city
    MAXDISCARD = 256
    MAXP = 7
    SEED_BATCH = 8        # game generators seeded together by simulate_random (mt_seed_many: <= 8)
    GEN_MT = 0            # a game's generator (``generators.GENERATORS``): CPython's Mersenne Twister
    GEN_SM = 1            # SplitMix64 (``generators.SplitMixRandom``), for games that are not kept
    HANDMAX = 8
    MAXACT = 1024         # legal actions of one player
    MAXPAY = 1024         # (left, right) pairs of one payment
    PAYROWS = 32          # coins to the left: 0..31 (a row of 32 bits for the right)
    RULE_LEN = 55
    STAGE_LEN = 62        # cost[7] + rule

# action kinds, in the order of engine.KINDS
cdef enum:
    K_BUILD = 0
    K_WONDER = 1
    K_DISCARD = 2
    K_FREE = 3
    K_REVIVE = 4
    K_PASS = 5
    K_FORFEIT = 6

# phases
cdef enum:
    PH_MAIN = 0
    PH_SEVENTH = 1
    PH_REVIVE = 2
    PH_OVER = 3

PHASES = ("main", "seventh", "revive", "over")

cdef enum:
    BLUE = 2
    YELLOW = 3
    PURPLE = 6
    STAGE = -1
    DEFEAT = -2

cdef int MILITARY_WIN[3]
cdef int DISCARD_COINS = 3

# ---------------------------------------------------------------------- records
ctypedef struct Count:
    int nwhat
    int what[4]
    int self_
    int neigh
    int n

ctypedef struct Rule:
    int color
    int fixed[7]
    int any_fixed
    int choice
    int choice_tradable
    int shields
    int science
    int science_any
    int vp
    int coins
    int trade_left
    int trade_right
    int play_seventh
    int build_from_discard
    int free_build
    int copy_guild
    int ncp
    Count cp[2]
    int nvp
    Count vpp[2]

ctypedef struct CardT:
    int building
    int coins
    int cost[7]
    uint64_t pcost              # cost packed: a byte per resource (pack7)
    int no_cost
    int has_chain
    uint64_t chain[2]
    Rule rule

ctypedef struct HotT:
    # what random_pick reads of a card: 36 bytes, padded to 40 (CardT is ~300 bytes)
    uint64_t pcost
    uint64_t chain[2]           # zero when the card has no chain
    int building
    int coins
    int paid                    # its builds pay for resources: no coins, not free of cost


ctypedef struct StageT:
    int cost[7]
    uint64_t pcost
    Rule rule

ctypedef struct WonderT:
    int resource
    int nst[2]
    StageT st[2][4]

ctypedef struct MT:
    uint32_t mt[MT_N]
    int index
    int fresh             # seeded by mt_seed_many: the next generation twisted lazily (mt_next)
    int lazy              # this generation: each word twisted when it is drawn

ctypedef struct SM:
    uint64_t s            # SplitMix64: the random bot's generator (bots.base.SplitMix64)

ctypedef struct Act:
    int kind
    int card
    int left
    int right

ctypedef struct City:
    int wonder
    int side
    int nstages
    int stages_built
    int coins
    int ncards
    int cards[MAXCITY]
    uint64_t blds[2]
    int colors[7]
    int fixed[7]
    uint64_t pfixed             # fixed packed (pack7), kept with it
    int tfixed[7]
    int nch
    int ch[MAXCH]
    int ntch
    int tch[MAXCH]
    unsigned char hall[128]     # own either/or cards meeting each resource subset
    unsigned char thall[128]    # the same for the tradable ones
    uint64_t chcode             # ch as a multiset: a nibble per either/or mask (CHSLOT)
    uint64_t tchcode            # tch the same
    uint64_t ptfixed            # tfixed packed (pack7)
    uint32_t prices             # bit r: pl[r] == 1, bit 7 + r: pr[r] == 1
    int pl[7]
    int pr[7]
    int shields
    int sci[3]
    int wild
    int military
    int defeats
    int blue_vp
    int wonder_vp
    int free_build
    int free_used_age
    int seventh
    int copy_guild
    int revive_pending

ctypedef struct GameS:
    int n
    int gen                     # the game's generator: GEN_MT (rng) or GEN_SM (srng)
    SM srng
    MT rng
    City cities[MAXP]
    int guild_draw[12]
    int left[MAXP]
    int right[MAXP]
    int discard[MAXDISCARD]
    int ndiscard
    int hands[MAXP][HANDMAX]
    int hlen[MAXP]
    int age
    int turn
    int phase
    int revive_end
    int err
    int has6                    # turn 6 resolved, Babylon B's seventh card pending
    City before6[MAXP]          # the cities before turn 6 (the seventh card's neighbours)
    int income6[MAXP]           # coins received on turn 6, paid after the seventh card

# ---------------------------------------------------------------------- tables
cdef uint64_t pack7(const int* x) noexcept nogil:
    """Seven counts a byte each (capped at 127: a cost has at most 15 units), for
    :func:`payments`' first test, all resources at once."""
    cdef uint64_t v = 0
    cdef int r, k
    for r in range(7):
        k = x[r]
        if k > 127:
            k = 127
        elif k < 0:
            k = 0
        v |= (<uint64_t>k) << (8 * r)
    return v


cdef CardT CARDS[MAXCARDS]
cdef HotT HOT[MAXCARDS]
cdef int NCARDS = 0
cdef WonderT WONDERS[8]
cdef int NWONDERS = 0
cdef bint SEVENTH_SIDE[8][2]    # a stage of this wonder's side plays the seventh card
cdef int DECK[4][8][64]
cdef int DECKLEN[4][8]
cdef int GUILDS[12]
cdef int NGUILDS = 0
cdef bint LOADED = False


cdef int _read_rule(list row, int o, Rule* r) except -1:
    cdef int i, k, s
    r.color = row[o]
    r.any_fixed = 0
    for i in range(7):
        r.fixed[i] = row[o + 1 + i]
        if r.fixed[i]:
            r.any_fixed = 1
    r.choice = row[o + 8]
    r.choice_tradable = row[o + 9]
    r.shields = row[o + 10]
    r.science = row[o + 11]
    r.science_any = row[o + 12]
    r.vp = row[o + 13]
    r.coins = row[o + 14]
    r.trade_left = row[o + 15]
    r.trade_right = row[o + 16]
    r.play_seventh = row[o + 17]
    r.build_from_discard = row[o + 18]
    r.free_build = row[o + 19]
    r.copy_guild = row[o + 20]
    r.ncp = row[o + 21]
    r.nvp = row[o + 38]
    if r.ncp > 2 or r.nvp > 2:
        raise ValueError("a rule has more than 2 coins_per or vp_per counts")
    for k in range(2):
        _read_count(row, o + 22 + 8 * k, &r.cp[k])
        _read_count(row, o + 39 + 8 * k, &r.vpp[k])
    return 0


cdef int _read_count(list row, int o, Count* c) except -1:
    cdef int i
    c.nwhat = row[o]
    if c.nwhat > 4:
        raise ValueError("a count has more than 4 things to count")
    for i in range(4):
        c.what[i] = row[o + 1 + i]
    c.self_ = row[o + 5]
    c.neigh = row[o + 6]
    c.n = row[o + 7]
    return 0


def load_tables(list cards, list wonders, list decks, list guilds, military_win, int discard_coins):
    """Load the flat card, wonder, deck and guild tables made by agon's ``fast`` module.

    ``cards``: one row per card index: building, coin cost, cost[7], number of chain sources,
    3 chain buildings, then the rule (55 ints).  ``wonders``: resource, stage counts of sides A
    and B, then per stage cost[7] + rule.  ``decks``: the card indices of ``age_deck(age, k)``
    at ``(age - 1) * 5 + k - 3``.  ``guilds``: the guild card indices in data order.
    ``military_win``: the victory token of each age; ``discard_coins``: coins for a discard.
    """
    global NCARDS, NWONDERS, NGUILDS, LOADED, DISCARD_COINS
    cdef int i, j, k, s, o, side, total
    cdef CardT* c
    cdef StageT* st
    if len(cards) > MAXCARDS or len(wonders) > 8 or len(guilds) > 12 or len(decks) != 15:
        raise ValueError("tables too large for the compiled core")
    memset(CARDS, 0, sizeof(CARDS))
    memset(HOT, 0, sizeof(HOT))
    for i, row in enumerate(cards):
        if len(row) != 13 + RULE_LEN:
            raise ValueError(f"card {i}: row of {len(row)} ints")
        c = &CARDS[i]
        c.building = row[0]
        if not 0 <= c.building < MAXBLD:
            raise ValueError(f"card {i}: building index out of range")
        c.coins = row[1]
        total = 0
        for j in range(7):
            c.cost[j] = row[2 + j]
            total += c.cost[j]
        if total > 15:
            raise ValueError(f"card {i}: cost of more than 15 units")
        c.no_cost = total == 0 and c.coins == 0
        c.has_chain = row[9] > 0
        for j in range(row[9]):
            b = row[10 + j]
            c.chain[b >> 6] |= (<uint64_t>1) << (b & 63)
        c.pcost = pack7(c.cost)
        _read_rule(row, 13, &c.rule)
        HOT[i].pcost = c.pcost
        HOT[i].chain[0] = c.chain[0]
        HOT[i].chain[1] = c.chain[1]
        HOT[i].building = c.building
        HOT[i].coins = c.coins
        HOT[i].paid = not c.coins and not c.no_cost
    NCARDS = len(cards)
    memset(WONDERS, 0, sizeof(WONDERS))
    for i, row in enumerate(wonders):
        WONDERS[i].resource = row[0]
        WONDERS[i].nst[0] = row[1]
        WONDERS[i].nst[1] = row[2]
        if row[1] > 4 or row[2] > 4 or len(row) != 3 + STAGE_LEN * (row[1] + row[2]):
            raise ValueError(f"wonder {i}: bad row")
        o = 3
        for side in range(2):
            for s in range(WONDERS[i].nst[side]):
                st = &WONDERS[i].st[side][s]
                total = 0
                for j in range(7):
                    st.cost[j] = row[o + j]
                    total += st.cost[j]
                if total > 15:
                    raise ValueError(f"wonder {i}: stage cost of more than 15 units")
                st.pcost = pack7(st.cost)
                _read_rule(row, o + 7, &st.rule)
                o += STAGE_LEN
            SEVENTH_SIDE[i][side] = False
            for s in range(WONDERS[i].nst[side]):
                if WONDERS[i].st[side][s].rule.play_seventh:
                    SEVENTH_SIDE[i][side] = True
    NWONDERS = len(wonders)
    _load_chslots()
    for i, deck in enumerate(decks):
        if len(deck) > 64:
            raise ValueError("deck too large")
        DECKLEN[i // 5 + 1][i % 5 + 3] = len(deck)
        for j, x in enumerate(deck):
            DECK[i // 5 + 1][i % 5 + 3][j] = x
    for i, x in enumerate(guilds):
        GUILDS[i] = x
    NGUILDS = len(guilds)
    for i in range(3):
        MILITARY_WIN[i] = military_win[i]
    DISCARD_COINS = discard_coins
    LOADED = True


cdef extern from *:
    int clz "__builtin_clz"(unsigned int x) noexcept nogil


# ---------------------------------------------------------------------- Mersenne Twister
# As CPython's Modules/_randommodule.c (MT19937 by Matsumoto and Nishimura).

cdef void mt_init_genrand(MT* r, uint32_t s) noexcept nogil:
    cdef int i
    r.mt[0] = s
    for i in range(1, MT_N):
        r.mt[i] = <uint32_t>(1812433253U * (r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) + <uint32_t>i)
    r.index = MT_N
    r.fresh = 0
    r.lazy = 0


cdef MT MT_BASE              # init_genrand(19650218), the start of every init_by_array
mt_init_genrand(&MT_BASE, 19650218U)


cdef void mt_init_by_array(MT* r, const uint32_t* key, int keylen) noexcept nogil:
    cdef int i = 1, j = 0, k
    memcpy(r, &MT_BASE, sizeof(MT))
    k = MT_N if MT_N > keylen else keylen
    while k > 0:
        r.mt[i] = <uint32_t>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * 1664525U))
                             + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        if j >= keylen:
            j = 0
        k -= 1
    k = MT_N - 1
    while k > 0:
        r.mt[i] = <uint32_t>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * 1566083941U))
                             - <uint32_t>i)
        i += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        k -= 1
    r.mt[0] = 0x80000000U


cdef void mt_seed64(MT* r, int64_t seed) noexcept nogil:
    """``random.seed(seed)`` for an int seed: key = 32-bit words of ``abs(seed)``."""
    cdef uint64_t a = <uint64_t>(-seed) if seed < 0 else <uint64_t>seed
    cdef uint32_t key[2]
    key[0] = <uint32_t>(a & 0xffffffffU)
    key[1] = <uint32_t>(a >> 32)
    mt_init_by_array(r, key, 2 if key[1] else 1)


cdef void mt_seed_many(MT** rs, const int64_t* seeds, int m) noexcept nogil:
    """``mt_seed64(rs[t], seeds[t])`` for t < m <= 8, in lockstep: each generator's seeding is
    one long chain of dependent steps, and stepping the m chains together lets the CPU overlap
    them (the same states as m calls of :func:`mt_seed64`)."""
    cdef uint32_t key[8][2]
    cdef int keylen[8]
    cdef int j[8]
    cdef int t, i = 1, k
    cdef uint64_t a
    cdef uint32_t* mt
    for t in range(m):
        a = <uint64_t>(-seeds[t]) if seeds[t] < 0 else <uint64_t>seeds[t]
        key[t][0] = <uint32_t>(a & 0xffffffffU)
        key[t][1] = <uint32_t>(a >> 32)
        keylen[t] = 2 if key[t][1] else 1
        j[t] = 0
    if m == SEED_BATCH:
        for t in range(1, m):
            if keylen[t] != keylen[0]:
                break
        else:
            mt_seed_lanes(rs, key, keylen[0])
            return
    for t in range(m):
        memcpy(rs[t], &MT_BASE, sizeof(MT))
    k = MT_N  # max(MT_N, keylen)
    while k > 0:
        for t in range(m):
            mt = rs[t].mt
            mt[i] = <uint32_t>((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U))
                               + key[t][j[t]] + <uint32_t>j[t])
            j[t] += 1
            if j[t] >= keylen[t]:
                j[t] = 0
        i += 1
        if i >= MT_N:
            for t in range(m):
                rs[t].mt[0] = rs[t].mt[MT_N - 1]
            i = 1
        k -= 1
    k = MT_N - 1
    while k > 0:
        for t in range(m):
            mt = rs[t].mt
            mt[i] = <uint32_t>((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U))
                               - <uint32_t>i)
        i += 1
        if i >= MT_N:
            for t in range(m):
                rs[t].mt[0] = rs[t].mt[MT_N - 1]
            i = 1
        k -= 1
    for t in range(m):
        rs[t].mt[0] = 0x80000000U
        rs[t].fresh = 1


cdef void mt_seed_lanes(MT** rs, uint32_t (*key)[2], int keylen) noexcept nogil:
    """:func:`mt_seed_many` of ``SEED_BATCH`` generators whose keys have one length: the
    states kept word by word side by side (``w[i][t]``, generator ``t``), so that each step of
    the seeding is one loop over the generators that the compiler turns into vector
    operations; then written into each generator (the same states)."""
    cdef uint32_t w[MT_N][SEED_BATCH]
    cdef uint32_t kj[2][SEED_BATCH]
    cdef int i, t, j = 0, k
    cdef uint32_t* mt
    for t in range(SEED_BATCH):
        kj[0][t] = key[t][0]
        kj[1][t] = key[t][1]
    for i in range(MT_N):
        for t in range(SEED_BATCH):
            w[i][t] = MT_BASE.mt[i]
    i = 1
    k = MT_N  # max(MT_N, keylen)
    while k > 0:
        for t in range(SEED_BATCH):
            w[i][t] = ((w[i][t] ^ ((w[i - 1][t] ^ (w[i - 1][t] >> 30)) * 1664525U))
                       + kj[j][t] + <uint32_t>j)
        j += 1
        if j >= keylen:
            j = 0
        i += 1
        if i >= MT_N:
            for t in range(SEED_BATCH):
                w[0][t] = w[MT_N - 1][t]
            i = 1
        k -= 1
    k = MT_N - 1
    while k > 0:
        for t in range(SEED_BATCH):
            w[i][t] = ((w[i][t] ^ ((w[i - 1][t] ^ (w[i - 1][t] >> 30)) * 1566083941U))
                       - <uint32_t>i)
        i += 1
        if i >= MT_N:
            for t in range(SEED_BATCH):
                w[0][t] = w[MT_N - 1][t]
            i = 1
        k -= 1
    for t in range(SEED_BATCH):
        mt = rs[t].mt
        for i in range(MT_N):
            mt[i] = w[i][t]
        mt[0] = 0x80000000U
        rs[t].index = MT_N
        rs[t].lazy = 0
        rs[t].fresh = 1


cdef inline void mt_twist_word(MT* r, int kk) noexcept nogil:
    """Word ``kk`` of the twist, as the loops of :func:`mt_next` compute it: drawn in order
    (words below ``kk`` twisted, the others not yet), the same value."""
    cdef uint32_t y
    if kk < MT_N - MT_M:
        y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
        r.mt[kk] = r.mt[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
    elif kk < MT_N - 1:
        y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
        r.mt[kk] = r.mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
    else:
        y = (r.mt[MT_N - 1] & 0x80000000U) | (r.mt[0] & 0x7fffffffU)
        r.mt[MT_N - 1] = r.mt[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)


cdef inline uint32_t mt_next(MT* r) noexcept nogil:
    """The next 32-bit word.  The first generation after :func:`mt_seed_many` is twisted word
    by word as it is drawn (a random bot draws some 40 words a game: most of the 624-word
    twist of each generator seeded per game went unused); later ones, and those of generators
    seeded one by one (the search bots', which draw thousands of words), all at once."""
    cdef uint32_t y
    cdef int kk
    if r.index >= MT_N and r.fresh:
        r.fresh = 0
        r.lazy = 1
        r.index = 0
    elif r.index >= MT_N:
        r.lazy = 0
        for kk in range(MT_N - MT_M):
            y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
            r.mt[kk] = r.mt[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
            r.mt[kk] = r.mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        y = (r.mt[MT_N - 1] & 0x80000000U) | (r.mt[0] & 0x7fffffffU)
        r.mt[MT_N - 1] = r.mt[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        r.index = 0
    if r.lazy:
        mt_twist_word(r, r.index)
    y = r.mt[r.index]
    r.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef inline double mt_random(MT* r) noexcept nogil:
    cdef uint32_t a = mt_next(r) >> 5
    cdef uint32_t b = mt_next(r) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef inline int mt_randbelow(MT* r, int n) noexcept nogil:
    """``Random._randbelow_with_getrandbits(n)`` for 0 < n < 2**31."""
    cdef int k = 32 - clz(<uint32_t>n)  # n.bit_length()
    cdef uint32_t v
    v = mt_next(r) >> (32 - k)
    while v >= <uint32_t>n:
        v = mt_next(r) >> (32 - k)
    return <int>v


# ---------------------------------------------------------------------- SplitMix64
# The random bot's generator, as ``agon.games.seven_wonders.bots.base.SplitMix64``: seeded in
# one store (a Mersenne Twister's seeding is some 1,900 dependent steps, and the core seeded one
# per random seat per game).

cdef inline void sm_seed(SM* r, int64_t seed) noexcept nogil:
    r.s = <uint64_t>seed


cdef inline uint64_t sm_next(SM* r) noexcept nogil:
    cdef uint64_t z
    r.s += 0x9E3779B97F4A7C15ULL
    z = r.s
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int sm_below(SM* r, int n) noexcept nogil:
    """``SplitMix64.below(n)`` for 0 < n < 2**31: Lemire's multiply with its rejection."""
    cdef uint64_t m = (sm_next(r) >> 32) * <uint64_t>n
    cdef uint32_t t
    if <uint32_t>m < <uint32_t>n:
        t = <uint32_t>((0x100000000ULL - <uint64_t>n) % <uint64_t>n)
        while <uint32_t>m < t:
            m = (sm_next(r) >> 32) * <uint64_t>n
    return <int>(m >> 32)


cdef inline double sm_random(SM* r) noexcept nogil:
    """``SplitMix64.random()``: the top 53 bits of a word over 2**53."""
    return (sm_next(r) >> 11) * (1.0 / 9007199254740992.0)


# ---------------------------------------------------------------------- a game's generator
# ``Game(..., generator="mt")`` (the default: stored and published games) draws the deal, the
# wonders, the sides and the guilds from CPython's Mersenne Twister; ``generator="splitmix"``
# (``agon 7w simulate`` and the ladders, which keep no game) from SplitMix64, seeded in one
# store: ``generators.SplitMixRandom``'s shuffle, sample and choice, the same numbers.

cdef inline int below_with(int gen, MT* mt, SM* sm, int n) noexcept nogil:
    """``_randbelow(n)`` of the Mersenne Twister ``mt`` or of SplitMix64 ``sm``, by ``gen``."""
    if gen == GEN_SM:
        return sm_below(sm, n)
    return mt_randbelow(mt, n)


cdef inline void shuffle_with(int gen, MT* mt, SM* sm, int* x, int n) noexcept nogil:
    """``Random.shuffle`` (CPython's loop) with the generator ``gen`` (``mt`` or ``sm``)."""
    cdef int i, j, t
    i = n - 1
    while i >= 1:
        j = below_with(gen, mt, sm, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t
        i -= 1


cdef inline void sample_with(int gen, MT* mt, SM* sm, const int* population, int n, int k,
                             int* out) noexcept nogil:
    """``Random.sample`` for n <= 21 (the pool method, which CPython uses for such small n)
    with the generator ``gen`` (``mt`` or ``sm``)."""
    cdef int pool[32]
    cdef int i, j
    for i in range(n):
        pool[i] = population[i]
    for i in range(k):
        j = below_with(gen, mt, sm, n - i)
        out[i] = pool[j]
        pool[j] = pool[n - i - 1]


cdef inline int g_below(GameS* g, int n) noexcept nogil:
    return below_with(g.gen, &g.rng, &g.srng, n)


# The two calls below pass the generator as a constant, so that the compiler makes one loop per
# generator from the one written: the generator tested inside the loop, at every draw, cost
# 0.7 % more instructions a random game (callgrind).

cdef void g_shuffle(GameS* g, int* x, int n) noexcept nogil:
    """``Random.shuffle`` with the game's generator."""
    if g.gen == GEN_SM:
        shuffle_with(GEN_SM, NULL, &g.srng, x, n)
    else:
        shuffle_with(GEN_MT, &g.rng, NULL, x, n)


cdef void g_sample(GameS* g, const int* population, int n, int k, int* out) noexcept nogil:
    """``Random.sample`` for n <= 21 with the game's generator."""
    if g.gen == GEN_SM:
        sample_with(GEN_SM, NULL, &g.srng, population, n, k, out)
    else:
        sample_with(GEN_MT, &g.rng, NULL, population, n, k, out)


cdef void mt_shuffle(MT* r, int* x, int n) noexcept nogil:
    """``Random.shuffle`` with a Mersenne Twister (the search bots' re-deals)."""
    shuffle_with(GEN_MT, r, NULL, x, n)


cdef void mt_sample(MT* r, const int* population, int n, int k, int* out) noexcept nogil:
    """``Random.sample`` for n <= 21 with a Mersenne Twister (the search bots' re-deals)."""
    sample_with(GEN_MT, r, NULL, population, n, k, out)


def sm_draws(int64_t seed, int count, int below=0, bint floats=False):
    """``count`` words of ``SplitMix64(seed)`` (or draws of ``below(below)``, or of ``random()``
    if ``floats``) (tests)."""
    cdef SM r
    sm_seed(&r, seed)
    if floats:
        return [sm_random(&r) for _ in range(count)]
    if below:
        return [sm_below(&r, below) for _ in range(count)]
    return [sm_next(&r) for _ in range(count)]


def mt_state_of(int64_t seed):
    """The generator state after seeding, as ``random.Random(seed).getstate()[1]`` (tests)."""
    cdef MT r
    mt_seed64(&r, seed)
    return tuple([r.mt[i] for i in range(MT_N)]) + (r.index,)


def mt_draws(int64_t seed, int count, int below=0, bint lockstep=False):
    """``count`` draws of ``random()`` (or of ``_randbelow(below)`` if ``below``) (tests);
    ``lockstep``: seeded by :func:`mt_seed_many` (its first generation twisted lazily)."""
    cdef MT r
    cdef MT* rs[1]
    cdef int64_t seeds[1]
    if lockstep:
        rs[0] = &r
        seeds[0] = seed
        mt_seed_many(rs, seeds, 1)
    else:
        mt_seed64(&r, seed)
    if below:
        return [mt_randbelow(&r, below) for _ in range(count)]
    return [mt_random(&r) for _ in range(count)]


def mt_batch_draws(list seeds, int count):
    """``count`` draws of ``random()`` from each of up to 8 generators seeded together by
    :func:`mt_seed_many` (tests: eight seeds whose keys have one length take
    :func:`mt_seed_lanes`)."""
    cdef MT* rs[SEED_BATCH]
    cdef int64_t sv[SEED_BATCH]
    cdef int m = len(seeds), t
    if not 1 <= m <= SEED_BATCH:
        raise ValueError(f"1 to {SEED_BATCH} seeds, got {m}")
    states = <MT*>PyMem_Malloc(sizeof(MT) * SEED_BATCH)
    if states == NULL:
        raise MemoryError()
    try:
        for t in range(m):
            rs[t] = &states[t]
            sv[t] = seeds[t]
        mt_seed_many(rs, sv, m)
        return [[mt_random(rs[t]) for _ in range(count)] for t in range(m)]
    finally:
        PyMem_Free(states)


# ---------------------------------------------------------------------- cities
cdef inline bint first_in_hand(const GameS* g, int p, int i) noexcept nogil:
    """Is the card at ``i`` of seat ``p``'s hand the first of its kind there? :func:`legal`
    lists a card's actions once, at its first copy; the searches walk the hand alike."""
    cdef int idx = g.hands[p][i], j
    for j in range(i):
        if g.hands[p][j] == idx:
            return False
    return True


cdef inline bint first_seen(uint64_t* seen, int idx) noexcept nogil:
    """:func:`first_in_hand` for a walk of the hand in order: whether card ``idx`` is met for
    the first time in the walk (``seen``: two words, zero at its start, as MAXCARDS is 128;
    ``idx`` is marked)."""
    cdef uint64_t bit = (<uint64_t>1) << (idx & 63)
    if seen[idx >> 6] & bit:
        return False
    seen[idx >> 6] |= bit
    return True


cdef inline int unsearched_build(const City* me, const CardT* card, int coins) noexcept nogil:
    """A build of ``card`` (not built yet) that needs no payment search: 1 (a chain, its coins
    within ``coins``, or no cost), 0 (its coins are more than ``coins``), -1 (paid in
    resources: search its payments)."""
    if card.has_chain and ((me.blds[0] & card.chain[0]) or (me.blds[1] & card.chain[1])):
        return 1
    if card.coins:
        return 1 if coins >= card.coins else 0
    if card.no_cost:
        return 1
    return -1


cdef inline bint has_bld(const City* c, int b) noexcept nogil:
    return (c.blds[b >> 6] >> (b & 63)) & 1


# A city's either/or productions as a multiset in one word (the key of a payment search,
# :func:`payments_kept`): a nibble per distinct mask of the loaded cards and wonder stages
# (``CHSLOT``: its nibble, at most 15 of them), counting its copies; a mask without a slot, or
# a 15th copy of one, sets the top nibble (``CH_UNKEYED``: such a city's payments are not kept).
cdef int CHSLOT[128]
cdef uint64_t CH_UNKEYED = (<uint64_t>0xF) << 60


cdef inline uint64_t chcode_add(uint64_t code, int mask) noexcept nogil:
    cdef int slot = CHSLOT[mask & 127]
    if slot < 0 or ((code >> (4 * slot)) & 15) >= 14:
        return code | CH_UNKEYED
    return code + ((<uint64_t>1) << (4 * slot))


cdef inline uint32_t city_prices(const City* c) noexcept nogil:
    cdef uint32_t x = 0
    cdef int r
    for r in range(7):
        if c.pl[r] == 1:
            x |= (<uint32_t>1) << r
        if c.pr[r] == 1:
            x |= (<uint32_t>1) << (7 + r)
    return x


cdef void city_init(City* c, int wonder, int side) noexcept nogil:
    cdef int r
    memset(c, 0, sizeof(City))
    c.wonder = wonder
    c.side = side
    c.nstages = WONDERS[wonder].nst[side]
    c.coins = 3
    r = WONDERS[wonder].resource
    c.fixed[r] = 1
    c.pfixed = pack7(c.fixed)
    c.tfixed[r] = 1
    c.ptfixed = pack7(c.tfixed)
    for r in range(7):
        c.pl[r] = 2
        c.pr[r] = 2


cdef void add_choice(City* c, int mask, bint tradable) noexcept nogil:
    cdef int s
    # hall[s] counts the cards meeting s; without a branch (hall[0] gains 0), so that the
    # compiler adds sixteen bytes at a time
    c.ch[c.nch] = mask
    c.nch += 1
    for s in range(128):
        c.hall[s] += (mask & s) != 0
    c.chcode = chcode_add(c.chcode, mask)
    if tradable:
        c.tch[c.ntch] = mask
        c.ntch += 1
        for s in range(128):
            c.thall[s] += (mask & s) != 0
        c.tchcode = chcode_add(c.tchcode, mask)


cdef void apply_permanent(City* c, const Rule* rule, bint tradable) noexcept nogil:
    cdef int r
    if rule.any_fixed:
        for r in range(7):
            if rule.fixed[r]:
                c.fixed[r] += rule.fixed[r]
                if tradable:
                    c.tfixed[r] += rule.fixed[r]
        c.pfixed = pack7(c.fixed)
        c.ptfixed = pack7(c.tfixed)
    if rule.choice:
        add_choice(c, rule.choice, rule.choice_tradable)
    c.shields += rule.shields
    if rule.science >= 0:
        c.sci[rule.science] += 1
    c.wild += rule.science_any
    if rule.trade_left or rule.trade_right:
        for r in range(7):
            if rule.trade_left >> r & 1:
                c.pl[r] = 1
            if rule.trade_right >> r & 1:
                c.pr[r] = 1
        c.prices = city_prices(c)


cdef void add_card(City* c, int index) noexcept nogil:
    cdef const CardT* card = &CARDS[index]
    cdef const Rule* rule = &card.rule
    c.cards[c.ncards] = index
    c.ncards += 1
    c.blds[card.building >> 6] |= (<uint64_t>1) << (card.building & 63)
    c.colors[rule.color] += 1
    apply_permanent(c, rule, rule.color <= 1)
    if rule.color == BLUE:
        c.blue_vp += rule.vp


cdef const Rule* add_stage(City* c) noexcept nogil:
    cdef const Rule* rule = &WONDERS[c.wonder].st[c.side][c.stages_built].rule
    c.stages_built += 1
    apply_permanent(c, rule, False)
    c.wonder_vp += rule.vp
    c.free_build |= rule.free_build
    c.seventh |= rule.play_seventh
    c.copy_guild |= rule.copy_guild
    return rule


# ---------------------------------------------------------------------- payments
# The answer of payments.payment_options, computed without search:
# (1) own production: fixed units first; then the either/or cards cover a vector u of the
#     missing units v0 (u <= v0) with Hall's condition (every resource subset S needs no more
#     units than there are cards meeting S); only the u of largest size count (own production
#     covers as much as it can), the rest w = v0 - u is bought;
# (2) a neighbour can supply a vector a of units iff its fixed units plus its tradable
#     either/or cards cover a, again by Hall's condition; left supplies a, right w - a;
# (3) the coins are sum(a * price_left) and sum((w - a) * price_right).
# The set of (left, right) sums is kept as a bitset, read out in sorted order.

cdef extern from *:
    int ctz "__builtin_ctz"(unsigned int x) noexcept nogil
    int popcount "__builtin_popcount"(unsigned int x) noexcept nogil


cdef inline bint hall_ok(const int* e, int supp, const unsigned char* hall) noexcept nogil:
    cdef int s = supp, need, t
    while s:
        need = 0
        t = s
        while t:
            need += e[ctz(t)]
            t &= t - 1
        if need > hall[s]:
            return False
        s = (s - 1) & supp
    return True


cdef inline int one_missing_span(const City* me, const City* lc, const City* rc, int k, int r,
                                  int size, int budget, int* lo_out, int* hi_out) noexcept nogil:
    """How many ``i`` (units bought from the left, ``size - i`` from the right) :func:`one_missing`
    pays with, and their range ``lo_out .. hi_out``: ``size - i`` <= what the right can serve,
    ``i`` <= what the left can, and ``i * pl + (size - i) * pr <= budget`` (one bound on ``i``,
    as ``pl`` is above, equal to or below ``pr`` by at most one coin)."""
    cdef int lo = size - rc.tfixed[r] - rc.thall[k], hi = lc.tfixed[r] + lc.thall[k], b
    if lo < 0:
        lo = 0
    if hi > size:
        hi = size
    if me.pl[r] == me.pr[r]:
        if size * me.pr[r] > budget:
            return 0
    elif me.pl[r] < me.pr[r]:  # i * (pl - pr) <= budget - size * pr, pl - pr == -1
        b = size * me.pr[r] - budget
        if b > lo:
            lo = b
    else:  # pl - pr == 1
        b = budget - size * me.pr[r]
        if b < hi:
            hi = b
    lo_out[0] = lo
    hi_out[0] = hi
    return hi - lo + 1 if hi >= lo else 0


cdef inline int one_missing(const City* me, const City* lc, const City* rc, int k, int units,
                            Act* out, int budget) noexcept nogil:
    """:func:`payments` when one resource ``r`` is missing (``k = 1 << r``, ``units`` of it): the
    common case, closed form (Hall's condition is one inequality per city)."""
    cdef int r = ctz(k), i, L, R, npay = 0, lo, hi
    cdef int size = units - (units if me.hall[k] >= units else me.hall[k])  # units to buy
    if out == NULL:
        # only the count: the (L, R) of different i differ (L = i * pl)
        return one_missing_span(me, lc, rc, k, r, size, budget, &lo, &hi)
    for i in range(size + 1):  # i units from the left, size - i from the right
        L = i * me.pl[r]
        R = (size - i) * me.pr[r]
        if (i - lc.tfixed[r] <= lc.thall[k] and size - i - rc.tfixed[r] <= rc.thall[k]
                and L + R <= budget):
            if out != NULL:
                out[npay].left = L
                out[npay].right = R
            npay += 1
    return npay


cdef inline int one_missing_range(const City* me, const City* lc, const City* rc, int k,
                                   int units, Act* out, int budget) noexcept nogil:
    """:func:`one_missing` into ``out`` (not NULL), the same payments in the same order, from
    the range of ``i`` its count computes (no test per ``i``: the loop's tests mispredict);
    its loop when the two prices differ by more than one coin."""
    cdef int r = ctz(k), i, lo, hi, npay = 0, pl = me.pl[r], pr = me.pr[r]
    cdef int size = units - (units if me.hall[k] >= units else me.hall[k])  # units to buy
    if pl - pr > 1 or pr - pl > 1:
        return one_missing(me, lc, rc, k, units, out, budget)
    if one_missing_span(me, lc, rc, k, r, size, budget, &lo, &hi) == 0:
        return 0
    for i in range(lo, hi + 1):
        out[npay].left = i * pl
        out[npay].right = (size - i) * pr
        npay += 1
    return npay


cdef inline uint64_t missing_bytes(uint64_t pcost, uint64_t pfixed) noexcept nogil:
    """The units a packed cost (a byte per resource) lacks beyond a packed fixed production, a
    byte each. Bytes c <= 15, f <= 127: (c | 0x80) - f never borrows from the next byte; its
    high bit is set where c >= f, and then its low bits are c - f."""
    cdef uint64_t d = (pcost | 0x8080808080808080ULL) - pfixed
    cdef uint64_t m = d & 0x8080808080808080ULL
    return d & (m - (m >> 7))


cdef inline int byte_sum(uint64_t d) noexcept nogil:
    """The sum of the bytes of ``d`` (each at most 15, so the sum fits the top byte)."""
    return <int>((d * 0x0101010101010101ULL) >> 56)


cdef inline int nonzero_bytes(uint64_t d) noexcept nogil:
    """A bit per non-zero byte of ``d`` (bytes at most 127), gathered by one multiplication: bit
    8r lands on bit 56 + r, no two partial products on the same bit."""
    return <int>(((((d + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) >> 7)
                  * 0x0102040810204000ULL) >> 56) & 0x7F


cdef int payments(const City* me, const City* lc, const City* rc, const int* cost,
                  uint64_t pcost, Act* out, int budget) noexcept nogil:
    """Every (left, right) payment of ``cost`` with left + right <= ``budget``, in sorted order;
    returns how many.  (A unit bought costs at least 1 coin, so a remainder of more units than
    ``budget`` is not split at all.)  ``out`` NULL: only count them (:func:`random_pick`).
    ``pcost``: ``pack7(cost)``; the missing units are first found a byte per resource at once
    (most calls end there: nothing missing, or more missing than the budget can buy)."""
    cdef int v0[7]
    cdef int rs[7]
    cdef int nr = 0, r, k, i, best, size, supp, lsupp, rsupp, L, R, npay, units = 0
    cdef int lo = PAYROWS, hi = -1, cap
    cdef bint empty
    cdef uint32_t bits
    cdef int amin[7]
    cdef int amax[7]
    cdef int u[7]
    cdef int ub[7]
    cdef int w[7]
    cdef int a[7]
    cdef int e[7]
    cdef int f[7]
    cdef int ws[256][7]
    cdef int nw = 0
    cdef uint32_t rows[PAYROWS]
    cdef uint64_t d = missing_bytes(pcost, me.pfixed)
    if d == 0:
        if out != NULL:
            out[0].left = 0
            out[0].right = 0
        return 1
    # the bytes of d are the missing units v0 (at most 15 each): their sum, and the set of
    # missing resources
    units = byte_sum(d)
    if units - me.nch > budget:
        return 0  # even if every either/or card served, too many units to buy
    supp = nonzero_bytes(d)
    if units - me.hall[supp] > budget:
        # even if every either/or card that makes a missing resource served (Hall's condition
        # on all of them: no cover is larger), too many units to buy
        return 0
    if (supp & (supp - 1)) == 0:
        return one_missing(me, lc, rc, supp, units, out, budget)
    for r in range(7):
        v0[r] = <int>((d >> (8 * r)) & 0xFF)
        if v0[r]:
            rs[nr] = r
            nr += 1
    if units <= me.nch and hall_ok(v0, supp, me.hall):
        # the own either/or cards cover every missing unit: the only largest cover is v0 itself,
        # nothing is bought, the one payment is (0, 0) (the search below finds just that)
        if out != NULL:
            out[0].left = 0
            out[0].right = 0
        return 1
    # (1) remainders after the own either/or cards
    if me.nch == 0:
        for r in range(7):
            ws[0][r] = v0[r]
        nw = 1
    else:
        best = -1
        memset(u, 0, sizeof(u))
        for i in range(nr):
            # u[r] above the either/or cards that make r fails Hall's condition on {r}: skipped
            r = rs[i]
            ub[r] = v0[r] if v0[r] < me.hall[1 << r] else me.hall[1 << r]
        while True:
            size = 0
            supp = 0
            for i in range(nr):
                size += u[rs[i]]
                if u[rs[i]]:
                    supp |= 1 << rs[i]
            if size >= best and size <= me.nch and hall_ok(u, supp, me.hall):
                if size > best:
                    best = size
                    nw = 0
                if nw == 256:
                    return -1
                for r in range(7):
                    ws[nw][r] = v0[r] - u[r]
                nw += 1
            # next u (odometer over the missing resources)
            i = 0
            while i < nr:
                r = rs[i]
                if u[r] < ub[r]:
                    u[r] += 1
                    break
                u[r] = 0
                i += 1
            if i == nr:
                break
    # (2) split each remainder between the neighbours
    if nw and me.nch and units - best > budget:
        return 0  # every remainder (units - best of them) costs more than the budget
    for k in range(nw):
        # the box of splits each neighbour can serve resource by resource (Hall's condition on
        # one resource); only splits inside it are tried, and only those that need two or more
        # resources from one neighbour's either/or cards go through the full condition
        empty = False
        for i in range(nr):
            r = rs[i]
            w[r] = ws[k][r]
            cap = lc.tfixed[r] + lc.thall[1 << r]
            amax[r] = w[r] if w[r] < cap else cap
            cap = w[r] - rc.tfixed[r] - rc.thall[1 << r]
            amin[r] = cap if cap > 0 else 0
            a[r] = amin[r]
            if amin[r] > amax[r]:
                empty = True
        if empty:
            continue
        while True:
            lsupp = 0
            rsupp = 0
            L = 0
            R = 0
            for i in range(nr):
                r = rs[i]
                e[r] = a[r] - lc.tfixed[r]
                if e[r] > 0:
                    lsupp |= 1 << r
                else:
                    e[r] = 0
                f[r] = w[r] - a[r] - rc.tfixed[r]
                if f[r] > 0:
                    rsupp |= 1 << r
                else:
                    f[r] = 0
                L += a[r] * me.pl[r]
                R += (w[r] - a[r]) * me.pr[r]
            if (L + R <= budget
                    and ((lsupp & (lsupp - 1)) == 0 or hall_ok(e, lsupp, lc.thall))
                    and ((rsupp & (rsupp - 1)) == 0 or hall_ok(f, rsupp, rc.thall))):
                # rows lo..hi are in use, the others unset: cleared when the range grows (no memset)
                if hi < 0:
                    rows[L] = 0
                    lo = L
                    hi = L
                elif L < lo:
                    for i in range(L, lo):
                        rows[i] = 0
                    lo = L
                elif L > hi:
                    for i in range(hi + 1, L + 1):
                        rows[i] = 0
                    hi = L
                rows[L] |= (<uint32_t>1) << R
            i = 0
            while i < nr:
                r = rs[i]
                if a[r] < amax[r]:
                    a[r] += 1
                    break
                a[r] = amin[r]
                i += 1
            if i == nr:
                break
    npay = 0
    if out == NULL:
        for L in range(lo, hi + 1):
            npay += popcount(rows[L])
        return npay
    for L in range(lo, hi + 1):
        bits = rows[L]
        while bits:
            out[npay].left = L
            out[npay].right = ctz(bits)
            npay += 1
            bits &= bits - 1
    return npay


cdef inline int pay_bound(const City* me, const City* lc, const City* rc, uint64_t pcost,
                          int budget, bint* exact) noexcept nogil:
    """An upper bound on ``payments(me, lc, rc, cost, pcost, NULL, budget)`` without its search
    (``payments.payment_bound`` in the Python engine, the same number): the count itself, with
    ``exact[0]`` set, where :func:`payments` answers before searching (nothing missing, too many
    units missing, one missing resource, the own either/or cards covering everything).
    Otherwise (two or more resources missing) every payment buys ``W`` units, ``W`` the same for
    all of them and ``max(1, units - hall[supp]) <= W <= units - (1 if hall[supp] else 0)``;
    ``i`` of them from the left, at most what it can trade of the missing resources
    (``capL``: its fixed units, capped by the missing ones, plus its either/or cards meeting
    them), the rest from the right (``capR``); left pays ``L`` in ``[plmin * i, plmax * i]``
    and right ``R`` in ``[prmin * (W - i), prmax * (W - i)]``, ``L + R <= budget``.  The bound
    counts those (L, R) points (the largest count over the possible ``W``)."""
    # the answers without a loop here, inlined into random_pick; the rest in pay_bound_split
    cdef uint64_t d = missing_bytes(pcost, me.pfixed)
    cdef int units, supp, hall, capl, capr
    exact[0] = True
    if d == 0:
        return 1
    units = byte_sum(d)
    if units - me.nch > budget:
        return 0
    supp = nonzero_bytes(d)
    hall = me.hall[supp]
    if units - hall > budget:
        return 0
    if (supp & (supp - 1)) == 0:
        return one_missing(me, lc, rc, supp, units, NULL, budget)
    # what each neighbour can trade of the missing units: its fixed units, each capped by the
    # units missing (a byte-wise min(d, fixed): d less its saturated difference), plus its
    # either/or cards meeting them
    capl = lc.thall[supp] + byte_sum(d - missing_bytes(d, lc.ptfixed))
    capr = rc.thall[supp] + byte_sum(d - missing_bytes(d, rc.ptfixed))
    if units > hall and capl + capr < units - hall:
        # more units to buy than both neighbours can serve: pay_bound_split's most common
        # answer (its loop over W would not run), without its call
        exact[0] = False
        return 0
    return pay_bound_split(me, lc, rc, d, units, supp, budget, capl, capr, exact)


cdef int pay_bound_split(const City* me, const City* lc, const City* rc, uint64_t d, int units,
                         int supp, int budget, int capl, int capr, bint* exact) noexcept nogil:
    """:func:`pay_bound` where two or more resources are missing (``d`` their units, a byte
    each, ``supp`` their set): the own either/or cards covering all (exact), else the bound.
    What each neighbour can trade of the missing units and the prices' range over the missing
    resources come from the packed bytes and the price bits, with no loop over the resources
    (a price is 1 or 2: ``prices`` has bit ``r`` where the left price of ``r`` is 1, bit
    ``7 + r`` where the right one is)."""
    cdef int hall = me.hall[supp], wlo, whi, plmin, plmax, prmin, prmax, r, W, i
    cdef int L, top, rmin, rmax, t, best = 0, ilo, ihi
    cdef uint32_t cheap_l = me.prices & <uint32_t>supp
    cdef uint32_t cheap_r = (me.prices >> 7) & <uint32_t>supp
    cdef int v0[7]
    if units <= hall:
        for r in range(7):
            v0[r] = <int>((d >> (8 * r)) & 0xFF)
        if hall_ok(v0, supp, me.hall):
            return 1
    exact[0] = False
    wlo = units - hall
    if wlo < 1:
        wlo = 1
    whi = units - 1 if hall else units
    if whi > budget:
        whi = budget
    # a neighbour serves at most ``capl`` / ``capr`` of them (pay_bound)
    if whi > capl + capr:
        whi = capl + capr  # more units than both neighbours can serve: no split (t = 0)
    plmin = 1 if cheap_l else 2
    plmax = 1 if cheap_l == <uint32_t>supp else 2
    prmin = 1 if cheap_r else 2
    prmax = 1 if cheap_r == <uint32_t>supp else 2
    for W in range(wlo, whi + 1):
        t = 0
        ilo = W - capr if W > capr else 0
        ihi = W if W < capl else capl
        if plmin == plmax and prmin == prmax:
            # one price a side: the point of i is (i * pl, (W - i) * pr), one per i, within the
            # budget for i on one side of a bound (as in one_missing)
            if plmin == prmin:
                if W * prmin > budget:
                    ihi = -1
            elif plmin < prmin:
                L = W * prmin - budget
                if L > ilo:
                    ilo = L
            else:
                L = budget - W * prmin
                if L < ihi:
                    ihi = L
            t = ihi - ilo + 1 if ihi >= ilo else 0
            if t > best:
                best = t
            continue
        for i in range(ilo, ihi + 1):
            rmin = prmin * (W - i)
            rmax = prmax * (W - i)
            for L in range(plmin * i, plmax * i + 1):
                top = budget - L
                if top > rmax:
                    top = rmax
                if top >= rmin:
                    t += top - rmin + 1
        if t > best:
            best = t
    return best


# The general payment searches kept (the searches' play-outs ask the same ones again and
# again: the cities' production changes on few steps).  A search depends on the cost, the
# city's fixed units, either/or cards and prices, and its neighbours' tradable fixed units and
# either/or cards: that is the key, compared whole (no hash collision can give another
# answer).  It is searched without the coins' budget (every payment of a budget ``B`` is one of
# those with ``left + right <= B``: the budget only prunes) and filtered when read.  One table
# per thread (the searches run without the GIL), direct-mapped, allocated on first use and
# cleared when the tables are loaded again (``PAY_GEN``).
cdef enum:
    PAYKEEP = 1024        # entries (a power of two)
    PAYKEEP_SHIFT = 54    # 64 - log2(PAYKEEP)
    PAYC = 36             # payments kept per entry (more: searched each time)

ctypedef struct PayEntry:
    uint64_t d                  # the units missing, a byte each; 0: empty
    uint64_t mch
    uint64_t lfix
    uint64_t lch
    uint64_t rfix
    uint64_t rch
    uint32_t prices
    int n                       # payments; -1: the search overflowed; -2: more than PAYC
    unsigned char lr[2 * PAYC]  # (left, right) of each, in sorted order
    # 128 bytes, the table aligned to 64: the key, the count and the first four payments are
    # one cache line (a question's first touch of its entry)

ctypedef struct PayKeep:
    PayEntry e[PAYKEEP]
    int gen

cdef extern from *:
    """
    static __thread void* agon_sw_paykeep = 0;
    """
    void* agon_sw_paykeep

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef int PAY_GEN = 1
cdef uint64_t PAY_MASK = PAYKEEP - 1   # the entries in use (kept_entries: fewer in tests)


def kept_entries(int n):
    """Use the first ``n`` entries (a power of two, 1 to 1024) of the kept payments' table,
    cleared (tests: 1 makes every question meet every other); the number before."""
    global PAY_MASK, PAY_GEN
    if n < 1 or n > PAYKEEP or n & (n - 1):
        raise ValueError(f"kept_entries: a power of two from 1 to {PAYKEEP}")
    before = PAY_MASK + 1
    PAY_MASK = n - 1
    PAY_GEN += 1
    return before


cdef void _load_chslots() noexcept:
    """``CHSLOT`` from the loaded cards and wonder stages; the kept payments cleared."""
    global PAY_GEN
    cdef int i, side, s, m, n = 0
    for i in range(128):
        CHSLOT[i] = -1
    for i in range(NCARDS + NWONDERS * 8):
        if i < NCARDS:
            m = CARDS[i].rule.choice & 127
        else:
            side = (i - NCARDS) // 4 % 2
            s = (i - NCARDS) % 4
            m = WONDERS[(i - NCARDS) // 8].st[side][s].rule.choice & 127
        if m and CHSLOT[m] < 0 and n < 15:
            CHSLOT[m] = n
            n += 1
    PAY_GEN += 1


cdef int payments_kept(const City* me, const City* lc, const City* rc, const int* cost,
                       uint64_t pcost, Act* out, int budget) noexcept nogil:
    """:func:`payments` into ``out`` (not NULL), the same answer, the general searches kept
    (see above); the answers without search are made as there."""
    global agon_sw_paykeep
    cdef uint64_t d = missing_bytes(pcost, me.pfixed)
    cdef uint64_t h, bm, lfix, rfix
    cdef uint32_t prices
    cdef int units, supp, i, n, npay
    cdef PayKeep* keep
    cdef PayEntry* e
    if d == 0:  # nothing missing: as payments answers, without its call
        out[0].left = 0
        out[0].right = 0
        return 1
    units = byte_sum(d)
    if units - me.nch > budget:
        return 0
    supp = nonzero_bytes(d)
    if units - me.hall[supp] > budget:
        return 0
    if (supp & (supp - 1)) == 0:  # one resource missing: payments' closed form, called directly
        return one_missing_range(me, lc, rc, supp, units, out, budget)
    if (me.chcode | lc.tchcode | rc.tchcode) & CH_UNKEYED:
        return payments(me, lc, rc, cost, pcost, out, budget)
    keep = <PayKeep*>agon_sw_paykeep
    if keep == NULL:
        if posix_memalign(&agon_sw_paykeep, 64, sizeof(PayKeep)) != 0:
            agon_sw_paykeep = NULL
            return payments(me, lc, rc, cost, pcost, out, budget)
        keep = <PayKeep*>agon_sw_paykeep
        memset(keep, 0, sizeof(PayKeep))
        keep.gen = PAY_GEN
    elif keep.gen != PAY_GEN:
        memset(keep, 0, sizeof(PayKeep))
        keep.gen = PAY_GEN
    # only the missing resources' bytes of the neighbours' fixed units and bits of the prices
    bm = (((d + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) >> 7) * 0xFF
    lfix = lc.ptfixed & bm
    rfix = rc.ptfixed & bm
    prices = me.prices & <uint32_t>(supp | (supp << 7))
    h = (d ^ (me.chcode * 0xC2B2AE3D27D4EB4FULL)
         ^ (lfix * 0x165667B19E3779F9ULL) ^ (lc.tchcode * 0xD6E8FEB86659FD93ULL)
         ^ (rfix * 0xFF51AFD7ED558CCDULL) ^ (rc.tchcode * 0xC4CEB9FE1A85EC53ULL)
         ^ (<uint64_t>prices * 0x94D049BB133111EBULL))
    h ^= h >> 29
    h *= 0xBF58476D1CE4E5B9ULL
    e = &keep.e[(h >> PAYKEEP_SHIFT) & PAY_MASK]
    if not (e.d == d and e.mch == me.chcode and e.lfix == lfix and e.lch == lc.tchcode
            and e.rfix == rfix and e.rch == rc.tchcode and e.prices == prices):
        n = payments(me, lc, rc, cost, pcost, out, 1 << 30)
        e.d = d
        e.mch = me.chcode
        e.lfix = lfix
        e.lch = lc.tchcode
        e.rfix = rfix
        e.rch = rc.tchcode
        e.prices = prices
        if n > PAYC:
            e.n = -2
        else:
            e.n = n
            for i in range(n):
                e.lr[2 * i] = <unsigned char>out[i].left
                e.lr[2 * i + 1] = <unsigned char>out[i].right
    if e.n == -2:
        return payments(me, lc, rc, cost, pcost, out, budget)
    if e.n < 0:
        return e.n
    npay = 0
    for i in range(e.n):
        if e.lr[2 * i] + e.lr[2 * i + 1] <= budget:
            out[npay].left = e.lr[2 * i]
            out[npay].right = e.lr[2 * i + 1]
            npay += 1
    return npay


# ---------------------------------------------------------------------- game flow
cdef void set_neighbours(GameS* g) noexcept nogil:
    cdef int p
    for p in range(g.n):
        g.left[p] = (p + 1) % g.n
        g.right[p] = (p - 1 + g.n) % g.n


cdef inline void copy_play(GameS* dst, const GameS* src, bint with_rng) noexcept nogil:
    """``dst`` the game ``src`` for a play-out, without what the play-out does not read: the
    generator unless ``with_rng`` (the caller sets it, or no deck is dealt again), and the
    cities before turn 6 (``before6``, read in the seventh card's phase only) while ``src`` is
    in the main phase at turn 6 or before (the main phase's turn 6 writes them before)."""
    dst.n = src.n
    dst.gen = src.gen
    if with_rng:
        dst.srng = src.srng
        memcpy(&dst.rng, &src.rng, sizeof(MT))
    # the seats' cities (none is read past ``n``), then the rest up to ``before6``
    memcpy(&dst.cities[0], &src.cities[0], sizeof(City) * src.n)
    memcpy(&dst.guild_draw[0], &src.guild_draw[0], <size_t>(<const char*>&src.before6[0]
                                                           - <const char*>&src.guild_draw[0]))
    if not (src.phase == PH_MAIN and src.turn <= 6):
        memcpy(&dst.before6[0], &src.before6[0], sizeof(City) * src.n)
    memcpy(&dst.income6[0], &src.income6[0], sizeof(int) * MAXP)


cdef void deal(GameS* g, int age) noexcept nogil:
    cdef int deck[64]
    cdef int m = DECKLEN[age][g.n], i, p
    for i in range(m):
        deck[i] = DECK[age][g.n][i]
    if age == 3:
        for i in range(g.n + 2):
            deck[m + i] = g.guild_draw[i]
        m += g.n + 2
    g_shuffle(g, deck, m)
    for p in range(g.n):
        for i in range(7):
            g.hands[p][i] = deck[7 * p + i]
        g.hlen[p] = 7
    g.age = age
    g.turn = 1
    g.phase = PH_MAIN


cdef void game_clear(GameS* g) noexcept nogil:
    """``memset(g, 0, sizeof(GameS))`` for :func:`game_setup_bots` and
    :func:`game_setup_seeded`, less what they write before it is read: the Mersenne Twister
    (seeded or copied where the game's generator is it, else never read), the cities
    (:func:`city_init`; none is read past ``n``), the discard pile (read below ``ndiscard``) and
    ``before6`` (written at turn 6 before the seventh card's phase reads it)."""
    g.n = 0
    g.gen = 0
    g.srng.s = 0
    memset(&g.guild_draw[0], 0, <size_t>(<char*>&g.discard[0] - <char*>&g.guild_draw[0]))
    memset(&g.ndiscard, 0, <size_t>(<char*>&g.before6[0] - <char*>&g.ndiscard))
    memset(&g.income6[0], 0, sizeof(g.income6))


cdef void game_setup(GameS* g, int n, int64_t seed, int gen, const int* wonders,
                     const int* sides, const int* guilds) noexcept nogil:
    """``Game(n, seed, wonders=..., sides=..., guilds=..., generator=GENERATORS[gen])``; NULL
    means drawn from the seed."""
    memset(g, 0, sizeof(GameS))
    g.gen = gen
    if gen == GEN_SM:
        sm_seed(&g.srng, seed)
    else:
        mt_seed64(&g.rng, seed)
    game_start(g, n, wonders, sides, guilds)


cdef void game_setup_bots(GameS* g, int n, int64_t seed, int gen, SM* rbots, MT* hbots,
                          const int* kinds) noexcept nogil:
    """``game_setup(g, n, seed, gen, NULL, NULL, NULL)`` and seat ``p``'s generator seeded with
    ``seed * 1000 + p``: ``sm_seed(&rbots[p], ...)`` for a random bot (``kinds`` NULL or
    ``kinds[p]`` 0), else ``mt_seed64(&hbots[p], ...)`` (the heuristic's Mersenne Twister); the
    Mersenne Twisters seeded in lockstep (:func:`mt_seed_many`)."""
    cdef MT* rs[MAXP + 1]
    cdef int64_t seeds[MAXP + 1]
    cdef int p, m = 0
    game_clear(g)
    g.gen = gen
    if gen == GEN_SM:
        sm_seed(&g.srng, seed)
    else:
        rs[0] = &g.rng
        seeds[0] = seed
        m = 1
    for p in range(n):
        if kinds == NULL or kinds[p] == 0:
            sm_seed(&rbots[p], seed * 1000 + p)
        else:
            rs[m] = &hbots[p]
            seeds[m] = seed * 1000 + p
            m += 1
    if m:
        mt_seed_many(rs, seeds, m)
    game_start(g, n, NULL, NULL, NULL)


cdef void game_setup_seeded(GameS* g, int n, int64_t seed, const MT* rng,
                            SM* rbots) noexcept nogil:
    """:func:`game_setup_bots` with random bots only, the game's generator ``rng`` already
    seeded with ``seed`` (:func:`simulate_random` seeds those of the next games together)."""
    cdef int p
    game_clear(g)
    memcpy(&g.rng, rng, sizeof(MT))
    for p in range(n):
        sm_seed(&rbots[p], seed * 1000 + p)
    game_start(g, n, NULL, NULL, NULL)


cdef void game_start(GameS* g, int n, const int* wonders, const int* sides,
                     const int* guilds) noexcept nogil:
    """The rest of :func:`game_setup` on a zeroed game whose generator is seeded."""
    cdef int boards[MAXP]
    cdef int side[MAXP]
    cdef int pop[12]
    cdef int p, i
    g.n = n
    if wonders == NULL:
        for i in range(NWONDERS):
            pop[i] = i
        g_sample(g, pop, NWONDERS, n, boards)
    else:
        for p in range(n):
            boards[p] = wonders[p]
    for p in range(n):
        side[p] = g_below(g, 2) if sides == NULL else sides[p]
    for p in range(n):
        city_init(&g.cities[p], boards[p], side[p])
    if guilds == NULL:
        g_sample(g, GUILDS, NGUILDS, n + 2, g.guild_draw)
    else:
        for i in range(n + 2):
            g.guild_draw[i] = guilds[i]
    set_neighbours(g)
    deal(g, 1)


cdef int to_act(const GameS* g, int* out) noexcept nogil:
    cdef int p, k = 0
    for p in range(g.n):
        if g.phase == PH_MAIN:
            out[k] = p
            k += 1
        elif g.phase == PH_SEVENTH:
            if g.cities[p].seventh and g.hlen[p]:
                out[k] = p
                k += 1
        elif g.phase == PH_REVIVE:
            if g.cities[p].revive_pending:
                out[k] = p
                k += 1
    return k


cdef inline int push(Act* out, int k, int kind, int card, int left, int right) noexcept nogil:
    if k < MAXACT:
        out[k].kind = kind
        out[k].card = card
        out[k].left = left
        out[k].right = right
    return k + 1


cdef int legal(GameS* g, int p, Act* out) noexcept nogil:
    """``Game.legal_actions(p)`` in the same order; -1 when the buffer is too small."""
    cdef City* me = &g.cities[p]
    # the seventh card belongs to turn 6: neighbours as they were before it (Bonn 2018)
    cdef const City* nb = &g.before6[0] if g.phase == PH_SEVENTH else &g.cities[0]
    cdef const City* lc = &nb[g.left[p]]
    cdef const City* rc = &nb[g.right[p]]
    cdef int k = 0, i, j, idx, coins = me.coins, nstage = 0, npay
    cdef bint free_ok
    cdef const CardT* card
    cdef Act stage_pays[MAXPAY]
    cdef Act pays[MAXPAY]
    cdef bint seen[MAXCARDS]
    if g.phase == PH_REVIVE:
        if not me.revive_pending:
            return 0
        memset(seen, 0, sizeof(seen))
        for i in range(g.ndiscard):
            idx = g.discard[i]
            if seen[idx] or has_bld(me, CARDS[idx].building):
                continue
            seen[idx] = True
            k = push(out, k, K_REVIVE, idx, 0, 0)
        k = push(out, k, K_PASS, -1, 0, 0)
        return k if k <= MAXACT else -1
    if g.phase == PH_OVER or g.hlen[p] == 0:
        return 0
    if g.phase == PH_SEVENTH and not me.seventh:
        return 0
    if me.stages_built < me.nstages:
        npay = payments(me, lc, rc, WONDERS[me.wonder].st[me.side][me.stages_built].cost,
                        WONDERS[me.wonder].st[me.side][me.stages_built].pcost, pays, coins)
        if npay < 0:
            return -1
        for j in range(npay):
            if pays[j].left + pays[j].right <= coins:
                stage_pays[nstage] = pays[j]
                nstage += 1
    free_ok = me.free_build and me.free_used_age != g.age and g.phase == PH_MAIN
    for i in range(g.hlen[p]):
        if not first_in_hand(g, p, i):
            continue
        idx = g.hands[p][i]
        card = &CARDS[idx]
        if not has_bld(me, card.building):
            npay = unsearched_build(me, card, coins)
            if npay > 0:
                k = push(out, k, K_BUILD, idx, 0, 0)
            elif npay < 0:
                npay = payments(me, lc, rc, card.cost, card.pcost, pays, coins)
                if npay < 0:
                    return -1
                for j in range(npay):
                    if pays[j].left + pays[j].right <= coins:
                        k = push(out, k, K_BUILD, idx, pays[j].left, pays[j].right)
            if free_ok:
                k = push(out, k, K_FREE, idx, 0, 0)
        for j in range(nstage):
            k = push(out, k, K_WONDER, idx, stage_pays[j].left, stage_pays[j].right)
        k = push(out, k, K_DISCARD, idx, 0, 0)
    return k if k <= MAXACT else -1


cdef inline bint exact_payment(const City* me, const City* lc, const City* rc, uint64_t pcost,
                               int t, int budget, Act* out) noexcept nogil:
    """The ``t``-th payment :func:`payments` lists, where :func:`pay_bound` says its bound is
    the count (``t`` below it), without the list: nothing missing, or the own either/or cards
    covering two or more missing resources, pay (0, 0); one missing resource pays ``i`` units
    to the left and the rest to the right, ``i`` the ``t``-th of :func:`one_missing_span`'s
    range (its payments in :func:`payments`' order).  False where the prices differ by more
    than one coin (:func:`one_missing_range`'s loop: list them instead)."""
    cdef uint64_t d = missing_bytes(pcost, me.pfixed)
    cdef int supp = nonzero_bytes(d), units, r, h, size, lo, hi, i
    if (supp & (supp - 1)) == 0 and d != 0:
        r = ctz(supp)
        if me.pl[r] - me.pr[r] > 1 or me.pr[r] - me.pl[r] > 1:
            return False
        units = byte_sum(d)
        h = me.hall[supp]
        size = units - (units if h >= units else h)
        one_missing_span(me, lc, rc, supp, r, size, budget, &lo, &hi)
        i = lo + t
        out.left = i * me.pl[r]
        out.right = (size - i) * me.pr[r]
    else:
        out.left = 0
        out.right = 0
    return True


cdef int random_pick(GameS* g, int p, SM* rng, Act* buf, Act* out) noexcept nogil:
    """``RandomBot.act``: an action uniform over ``legal(g, p)`` drawn by rejection, without
    counting every card's payments (``RandomBot.pick`` in the Python engine draws the same).

    The actions are taken in :func:`legal`'s order, card by card, with an upper bound in place
    of each count that needs a payment search (:func:`pay_bound`: a card's builds, the wonder
    stage's payments, shared by every card).  A draw ``sm_below(rng, total of the bounds)`` that
    falls on an action accepts it; one that falls within a bound beyond the true count (found
    then, by :func:`payments`, and kept as that bound from then on) is drawn again.  Each draw
    is uniform over a superset of the legal actions, so the accepted one is uniform over them;
    where every bound is exact the first draw is ``legal[sm_below(rng, n)]``.  ``buf``
    (MAXACT) serves the revive phase, which lists its actions, and the drawn card's payments.
    Returns the drawn card's position in the hand (HANDMAX in the revive phase: from the
    discard pile), a hint for :func:`step_at`; -1 where :func:`legal` fails or has no action."""
    cdef City* me = &g.cities[p]
    cdef const City* nb = &g.before6[0] if g.phase == PH_SEVENTH else &g.cities[0]
    cdef const City* lc = &nb[g.left[p]]
    cdef const City* rc = &nb[g.right[p]]
    cdef int k = 0, i, j, idx, coins = me.coins, nstage = 0, n, nh = g.hlen[p], t
    cdef int ncards = 0, inbuf = -1, counted = 0
    cdef bint free_ok, st_exact = True, st_listed = False, st_counted = False, redraw
    cdef const HotT* hot
    cdef const StageT* st = NULL
    cdef uint64_t blds[2]
    cdef Act stage_pays[MAXPAY]
    cdef int nbuild[HANDMAX]    # bound on the builds of hand position i; -1: a duplicate card
    cdef int nfree[HANDMAX]
    cdef bint paid[HANDMAX]     # its builds pay for resources (one per payment)
    cdef bint exact[HANDMAX]    # nbuild[i] is the count
    cdef int count[HANDMAX]     # the count where known (-1 not yet)
    cdef int st_count = -1
    cdef uint64_t seen[2]
    seen[0] = 0
    seen[1] = 0
    blds[0] = me.blds[0]
    blds[1] = me.blds[1]
    if g.phase == PH_REVIVE:
        k = legal(g, p, buf)
        if k <= 0:
            return -1
        out[0] = buf[sm_below(rng, k)]
        return HANDMAX
    if g.phase == PH_OVER or nh == 0:
        return -1
    if g.phase == PH_SEVENTH and not me.seventh:
        return -1
    if me.stages_built < me.nstages:
        st = &WONDERS[me.wonder].st[me.side][me.stages_built]
        nstage = pay_bound(me, lc, rc, st.pcost, coins, &st_exact)
    free_ok = me.free_build and me.free_used_age != g.age and g.phase == PH_MAIN
    for i in range(nh):
        idx = g.hands[p][i]
        if not first_seen(seen, idx):  # a second copy: its actions are the first's
            nbuild[i] = -1
            continue
        ncards += 1
        nbuild[i] = 0
        nfree[i] = 0
        paid[i] = False
        exact[i] = True
        count[i] = -1
        hot = &HOT[idx]
        if not (blds[hot.building >> 6] >> (hot.building & 63)) & 1:
            if (blds[0] & hot.chain[0]) or (blds[1] & hot.chain[1]):
                nbuild[i] = 1
            elif hot.paid:
                nbuild[i] = pay_bound(me, lc, rc, hot.pcost, coins, &exact[i])
                paid[i] = True
            else:  # coins, or nothing to pay
                nbuild[i] = 1 if coins >= hot.coins else 0
            if free_ok:
                nfree[i] = 1
        k += nbuild[i] + nfree[i] + 1
    k += ncards * nstage
    if k > MAXACT:
        # legal() fails beyond MAXACT actions: the true counts decide (the draws do not change)
        n = 0
        for i in range(nh):
            if nbuild[i] < 0:
                continue
            if not exact[i]:
                count[i] = payments(me, lc, rc, CARDS[g.hands[p][i]].cost,
                                    CARDS[g.hands[p][i]].pcost, NULL, coins)
                if count[i] < 0:
                    return -1
            n += (nbuild[i] if exact[i] else count[i]) + nfree[i] + 1
        if not st_exact:
            st_count = payments(me, lc, rc, st.cost, st.pcost, NULL, coins)
            if st_count < 0:
                return -1
        n += ncards * (nstage if st_exact else st_count)
        if n > MAXACT:
            return -1
    while True:
        t = sm_below(rng, k)
        redraw = False
        for i in range(nh):
            if nbuild[i] < 0:
                continue
            idx = g.hands[p][i]
            if t < nbuild[i]:
                if (paid[i] and exact[i] and not (counted >> i) & 1
                        and exact_payment(me, lc, rc, HOT[idx].pcost, t, coins, out)):
                    out[0].kind = K_BUILD
                    out[0].card = idx
                    return i
                if paid[i] and inbuf != i:  # only a drawn card's payments are listed
                    n = payments(me, lc, rc, CARDS[idx].cost, CARDS[idx].pcost, buf, coins)
                    if n < 0:
                        return -1
                    inbuf = i
                    if not exact[i]:
                        k -= nbuild[i] - n
                        nbuild[i] = n
                        exact[i] = True
                        counted |= 1 << i   # its count from the search, not its bound
                        if t >= n:
                            redraw = True
                            break
                out[0].kind = K_BUILD
                out[0].card = idx
                out[0].left = buf[t].left if paid[i] else 0
                out[0].right = buf[t].right if paid[i] else 0
                return i
            t -= nbuild[i]
            if t < nfree[i]:
                out[0].kind = K_FREE
                out[0].card = idx
                out[0].left = 0
                out[0].right = 0
                return i
            t -= nfree[i]
            if t < nstage:
                if (st_exact and not st_counted
                        and exact_payment(me, lc, rc, st.pcost, t, coins, out)):
                    out[0].kind = K_WONDER
                    out[0].card = idx
                    return i
                if not st_listed:
                    n = payments(me, lc, rc, st.cost, st.pcost, stage_pays, coins)
                    if n < 0:
                        return -1
                    st_listed = True
                    if not st_exact:
                        k -= ncards * (nstage - n)
                        nstage = n
                        st_exact = True
                        st_counted = True
                        if t >= n:
                            redraw = True
                            break
                out[0].kind = K_WONDER
                out[0].card = idx
                out[0].left = stage_pays[t].left
                out[0].right = stage_pays[t].right
                return i
            t -= nstage
            if t == 0:
                out[0].kind = K_DISCARD
                out[0].card = idx
                out[0].left = 0
                out[0].right = 0
                return i
            t -= 1
        if not redraw:
            return -1


cdef int count_now(const Count* c, const City* me, const City* l, const City* r) noexcept nogil:
    """``engine.count_vp``: the count over the cities as they are now."""
    cdef int total = 0, i, j
    cdef const City* cs[3]
    cdef int m = 0
    if c.self_:
        cs[m] = me
        m += 1
    if c.neigh:
        cs[m] = l
        cs[m + 1] = r
        m += 2
    for j in range(m):
        for i in range(c.nwhat):
            if c.what[i] == STAGE:
                total += cs[j].stages_built
            elif c.what[i] == DEFEAT:
                total += cs[j].defeats
            else:
                total += cs[j].colors[c.what[i]]
    return total * c.n


cdef int remove_first(int* xs, int* n, int x) noexcept nogil:
    cdef int i, j
    for i in range(n[0]):
        if xs[i] == x:
            # a loop, not memmove: a hand is at most eight cards (a call costs more)
            for j in range(i, n[0] - 1):
                xs[j] = xs[j + 1]
            n[0] -= 1
            return 0
    return -1


cdef int KEEP_BELOW[HANDMAX][HANDMAX]     # KEEP_BELOW[i][j]: all ones where j < i (remove_hand)
for _i in range(HANDMAX):
    for _j in range(HANDMAX):
        KEEP_BELOW[_i][_j] = -1 if _j < _i else 0


cdef inline int remove_hand(int* xs, int* n, int x, int hint) noexcept nogil:
    """``remove_first`` on a hand row (HANDMAX ints): the card at ``hint`` when it is there (the
    random bot's drawn position), else the first ``x``.  The shift runs over the whole row with
    a select per slot: no branch on the card's position, which the predictor cannot guess (the
    slots past the hand's length keep stale cards, never read)."""
    cdef int i = hint, j
    cdef const int* keep
    if i < 0 or i >= n[0] or xs[i] != x:
        i = 0
        while i < n[0] and xs[i] != x:
            i += 1
        if i == n[0]:
            return -1
    keep = KEEP_BELOW[i]    # a table, not j < i: gcc would split the loop at i (a branch)
    for j in range(HANDMAX - 1):
        xs[j] = (xs[j] & keep[j]) | (xs[j + 1] & ~keep[j])
    n[0] -= 1
    return 0


cdef void end_age(GameS* g) noexcept nogil:
    cdef int win = MILITARY_WIN[g.age - 1], p, k, q
    cdef int shields[MAXP]
    cdef City* me
    for p in range(g.n):
        shields[p] = g.cities[p].shields
    for p in range(g.n):
        me = &g.cities[p]
        for k in range(2):
            q = g.left[p] if k == 0 else g.right[p]
            if shields[p] > shields[q]:
                me.military += win
            elif shields[p] < shields[q]:
                me.military -= 1
                me.defeats += 1
    if g.age == 3:
        g.phase = PH_OVER
        return
    deal(g, g.age + 1)


cdef bint any_revive(const GameS* g) noexcept nogil:
    cdef int p
    for p in range(g.n):
        if g.cities[p].revive_pending:
            return True
    return False


cdef void end_of_age_cards(GameS* g) noexcept nogil:
    cdef int p, i
    for p in range(g.n):
        for i in range(g.hlen[p]):
            if g.ndiscard < MAXDISCARD:
                g.discard[g.ndiscard] = g.hands[p][i]
                g.ndiscard += 1
            else:
                g.err = 1
        g.hlen[p] = 0
    if any_revive(g):
        g.revive_end = 1
        g.phase = PH_REVIVE
        return
    end_age(g)


cdef inline int next_holder(const GameS* g, int p) noexcept nogil:
    """``Game.next_holder``: the seat p's hand passes to (left in ages I and III, right in II)."""
    return (p + (-1 if g.age == 2 else 1) + g.n) % g.n


cdef void pass_hands(GameS* g) noexcept nogil:
    cdef int nh[MAXP][HANDMAX]
    cdef int nl[MAXP]
    cdef int p, q
    for p in range(g.n):
        q = next_holder(g, p)
        memcpy(nh[q], g.hands[p], sizeof(int) * HANDMAX)
        nl[q] = g.hlen[p]
    memcpy(g.hands, nh, sizeof(nh))
    memcpy(g.hlen, nl, sizeof(nl))


cdef void advance(GameS* g) noexcept nogil:
    cdef int p
    if g.phase == PH_MAIN:
        if g.turn < 6:
            pass_hands(g)
            g.turn += 1
            if any_revive(g):
                g.revive_end = 0
                g.phase = PH_REVIVE
            return
        for p in range(g.n):
            if g.cities[p].seventh and g.hlen[p]:
                g.phase = PH_SEVENTH
                return
        end_of_age_cards(g)
    elif g.phase == PH_SEVENTH:
        end_of_age_cards(g)
    elif g.phase == PH_REVIVE:
        if g.revive_end:
            end_age(g)
        else:
            g.phase = PH_MAIN


cdef void step(GameS* g, const int* players, const Act* acts, int m) noexcept nogil:
    """``Game.step_unchecked``: the actions of ``players`` (in to_act order), known legal."""
    step_at(g, players, acts, NULL, m)


cdef void step_at(GameS* g, const int* players, const Act* acts, const int* slots,
                  int m) noexcept nogil:
    """:func:`step` with each card's position in its hand where known (``slots``, NULL: none;
    :func:`random_pick` returns it): the hand removal then needs no search."""
    cdef int income[MAXP]
    cdef int before[MAXP][7]
    cdef int stages_before[MAXP]
    cdef int defeats_before[MAXP]
    cdef int save[7]
    cdef bint snap = False
    cdef bint seventh = g.phase == PH_SEVENTH
    cdef int i, p, q, k, j, s, kind, index, total, nseats
    cdef int seats[3]
    cdef City* me
    cdef const City* base
    cdef const Rule* rule
    cdef const Count* cnt
    memset(income, 0, sizeof(income))
    if g.phase == PH_MAIN and g.turn == 6:
        # kept only where a seventh card may follow (Babylon B: a city that has, or may build
        # this turn, the stage); nothing reads before6 otherwise
        for p in range(g.n):
            if g.cities[p].seventh or SEVENTH_SIDE[g.cities[p].wonder][g.cities[p].side]:
                memcpy(g.before6, g.cities, sizeof(City) * g.n)
                break
        g.has6 = 1
    for i in range(m):
        if acts[i].card >= 0 and CARDS[acts[i].card].rule.ncp:
            snap = True
    if snap:
        for p in range(g.n):
            base = &g.before6[p] if seventh else &g.cities[p]
            memcpy(before[p], base.colors, sizeof(int) * 7)
            stages_before[p] = base.stages_built
            defeats_before[p] = base.defeats
        if seventh:  # the own city with its sixth card
            for i in range(m):
                p = players[i]
                memcpy(before[p], g.cities[p].colors, sizeof(int) * 7)
                stages_before[p] = g.cities[p].stages_built
                defeats_before[p] = g.cities[p].defeats
    for i in range(m):
        p = players[i]
        me = &g.cities[p]
        kind = acts[i].kind
        if kind == K_PASS:
            me.revive_pending = 0
            continue
        index = acts[i].card
        if kind == K_REVIVE:
            if remove_first(g.discard, &g.ndiscard, index) < 0:
                g.err = 1
            me.revive_pending = 0
        else:
            if remove_hand(g.hands[p], &g.hlen[p], index, slots[i] if slots != NULL else -1) < 0:
                g.err = 1
        if kind == K_DISCARD or kind == K_FORFEIT:
            if g.ndiscard < MAXDISCARD:
                g.discard[g.ndiscard] = index
                g.ndiscard += 1
            else:
                g.err = 1
            if kind == K_DISCARD:
                income[p] += DISCARD_COINS
            continue
        if acts[i].left or acts[i].right:
            me.coins -= acts[i].left + acts[i].right
            income[g.left[p]] += acts[i].left
            income[g.right[p]] += acts[i].right
        if kind == K_WONDER:
            rule = add_stage(me)
            income[p] += rule.coins
            if rule.build_from_discard:
                me.revive_pending += 1
            continue
        if (kind == K_BUILD and CARDS[index].coins
                and not ((me.blds[0] & CARDS[index].chain[0])
                         or (me.blds[1] & CARDS[index].chain[1]))):
            me.coins -= CARDS[index].coins
        if kind == K_FREE:
            me.free_used_age = g.age
        add_card(me, index)
        rule = &CARDS[index].rule
        income[p] += rule.coins
        if rule.ncp:
            # own city with the card just built (the Lighthouse counts itself, Bonn 2018),
            # neighbours as they were before this turn
            memcpy(save, before[p], sizeof(save))
            memcpy(before[p], me.colors, sizeof(save))
            for k in range(rule.ncp):
                cnt = &rule.cp[k]
                nseats = 0
                if cnt.self_:
                    seats[nseats] = p
                    nseats += 1
                if cnt.neigh:
                    seats[nseats] = g.left[p]
                    seats[nseats + 1] = g.right[p]
                    nseats += 2
                total = 0
                for j in range(nseats):
                    s = seats[j]
                    for q in range(cnt.nwhat):
                        if cnt.what[q] == STAGE:
                            total += stages_before[s]
                        elif cnt.what[q] == DEFEAT:
                            total += defeats_before[s]
                        else:
                            total += before[s][cnt.what[q]]
                income[p] += total * cnt.n
            memcpy(before[p], save, sizeof(save))
    if seventh:
        for p in range(g.n):
            income[p] += g.income6[p]
        g.has6 = 0
    elif g.has6:
        # turn 6 was played; its coins wait for Babylon B's seventh card (Bonn 2018)
        g.has6 = 0
        for p in range(g.n):
            if g.cities[p].seventh and g.hlen[p]:
                g.has6 = 1
        if g.has6:
            memcpy(g.income6, income, sizeof(income))
            memset(income, 0, sizeof(income))
    for p in range(g.n):
        g.cities[p].coins += income[p]
    advance(g)


# ---------------------------------------------------------------------- scores
cdef int science_points(int c0, int c1, int c2, int wild) noexcept nogil:
    cdef int best = 0, v, m, i
    if wild == 0:
        m = c0
        if c1 < m:
            m = c1
        if c2 < m:
            m = c2
        return c0 * c0 + c1 * c1 + c2 * c2 + 7 * m
    for i in range(3):
        v = science_points(c0 + (i == 0), c1 + (i == 1), c2 + (i == 2), wild - 1)
        if v > best:
            best = v
    return best


ctypedef struct ScoreS:
    int military
    int coins
    int wonder
    int civilian
    int commercial
    int guilds
    int science
    int treasury
    int copied


cdef void score_city(const City* me, const City* l, const City* r, ScoreS* out) noexcept nogil:
    """``engine.score_city``; the copied guild (Olympia B) is the best, first in card order."""
    cdef int commercial = 0, guild_vp = 0, base, i, k, idx, extra, best_extra = 0, copied = -1
    cdef int science
    cdef const Rule* rule
    cdef bint cand[MAXCARDS]
    for i in range(me.ncards):
        rule = &CARDS[me.cards[i]].rule
        for k in range(rule.nvp):
            if rule.color == YELLOW:
                commercial += count_now(&rule.vpp[k], me, l, r)
            elif rule.color == PURPLE:
                guild_vp += count_now(&rule.vpp[k], me, l, r)
    base = science_points(me.sci[0], me.sci[1], me.sci[2], me.wild)
    if me.copy_guild:
        memset(cand, 0, sizeof(cand))
        for i in range(l.ncards):
            cand[l.cards[i]] = True
        for i in range(r.ncards):
            cand[r.cards[i]] = True
        for idx in range(NCARDS):
            if not cand[idx]:
                continue
            rule = &CARDS[idx].rule
            if rule.color != PURPLE:
                continue
            extra = 0
            for k in range(rule.nvp):
                extra += count_now(&rule.vpp[k], me, l, r)
            if rule.science_any:
                extra += science_points(me.sci[0], me.sci[1], me.sci[2],
                                        me.wild + rule.science_any) - base
            if copied < 0 or extra > best_extra:
                copied = idx
                best_extra = extra
    science = base
    if copied >= 0:
        rule = &CARDS[copied].rule
        if rule.science_any:
            science = science_points(me.sci[0], me.sci[1], me.sci[2], me.wild + rule.science_any)
        for k in range(rule.nvp):
            guild_vp += count_now(&rule.vpp[k], me, l, r)
    out.military = me.military
    out.coins = me.coins // 3
    out.wonder = me.wonder_vp
    out.civilian = me.blue_vp
    out.commercial = commercial
    out.guilds = guild_vp
    out.science = science
    out.treasury = me.coins
    out.copied = copied


cdef inline int total_of(const ScoreS* s) noexcept nogil:
    return s.military + s.coins + s.wonder + s.civilian + s.commercial + s.guilds + s.science


# ---------------------------------------------------------------------- random play
cdef int tally_end(const GameS* g, int* totals, int* treasury, double* share) noexcept nogil:
    """The end of a game: every seat's total and treasury, and its share of the win (the best
    (total, coins) wins; a win shared by k seats is 1/k each).  Returns the number of winners."""
    cdef int p, nwin = 0, bt = -1000000, bc = -1
    cdef ScoreS sc
    for p in range(g.n):
        score_city(&g.cities[p], &g.cities[g.left[p]], &g.cities[g.right[p]], &sc)
        totals[p] = total_of(&sc)
        treasury[p] = sc.treasury
        if totals[p] > bt or (totals[p] == bt and sc.treasury > bc):
            bt = totals[p]
            bc = sc.treasury
    for p in range(g.n):
        if totals[p] == bt and treasury[p] == bc:
            nwin += 1
    for p in range(g.n):
        share[p] = 1.0 / nwin if totals[p] == bt and treasury[p] == bc else 0.0
    return nwin


cdef int play_random_game(GameS* g, SM* bots, int64_t* decisions) noexcept nogil:
    """Play to the end, each seat choosing ``legal[bot.choice]`` (``RandomBot``); -1 on error."""
    cdef Act buf[MAXACT]
    cdef Act chosen[MAXP]
    cdef int players[MAXP]
    cdef int slots[MAXP]
    cdef int m, i, p, k
    while g.phase != PH_OVER:
        m = to_act(g, players)
        for i in range(m):
            p = players[i]
            slots[i] = random_pick(g, p, &bots[p], buf, &chosen[i])
            if slots[i] < 0:
                return -1
        decisions[0] += m
        step_at(g, players, chosen, slots, m)
        if g.err:
            return -1
    return 0


cdef object score_rows(GameS* g):
    cdef ScoreS s
    rows = []
    for p in range(g.n):
        score_city(&g.cities[p], &g.cities[g.left[p]], &g.cities[g.right[p]], &s)
        rows.append((p, s.military, s.coins, s.wonder, s.civilian, s.commercial, s.guilds,
                     s.science, s.treasury, s.copied))
    return rows


cdef int _require_loaded() except -1:
    if not LOADED:
        raise RuntimeError("sevenw_core: load_tables() first")
    return 0


cdef int _check_generator(int generator) except -1:
    if generator != GEN_MT and generator != GEN_SM:
        raise ValueError(f"generator: {GEN_MT} (Mersenne Twister) or {GEN_SM} (SplitMix64)")
    return 0


def play_random(int players, int64_t seed, int generator=GEN_MT):
    """One game as ``agon 7w simulate --bots random`` plays it: ``Game(players, seed,
    generator=GENERATORS[generator])``, seat ``p`` a ``RandomBot(seed * 1000 + p)``.  Returns
    (decisions, score rows)."""
    cdef GameS* g
    cdef SM bots[MAXP]
    cdef int64_t decisions = 0
    cdef int p, rc
    _require_loaded()
    _check_generator(generator)
    if not 3 <= players <= 7:
        raise ValueError(f"players must be 3..7, got {players}")
    g = <GameS*>PyMem_Malloc(sizeof(GameS))
    try:
        game_setup_bots(g, players, seed, generator, bots, NULL, NULL)
        rc = play_random_game(g, bots, &decisions)
        if rc < 0:
            raise RuntimeError(f"sevenw_core: game {seed} failed")
        return decisions, score_rows(g)
    finally:
        PyMem_Free(g)


def simulate_random(int players, int games, int64_t seed, int generator=GEN_MT):
    """``games`` games ``play_random(players, seed + i, generator)``; returns (decisions, score
    sums per seat, wins per seat), a shared win counting ``1 / winners`` (in game order, as the
    CLI)."""
    cdef GameS* g
    cdef SM bots[MAXP]
    cdef int64_t decisions = 0, s
    cdef int64_t sums[MAXP]
    cdef double wins[MAXP]
    cdef int totals[MAXP]
    cdef int treasury[MAXP]
    cdef double share[MAXP]
    cdef int i, p, t, m, rc = 0
    # the game generators of SEED_BATCH games at a time, seeded in lockstep (mt_seed_many):
    # one generator's seeding is a chain of dependent steps, several side by side overlap
    cdef MT* pre
    cdef MT* prs[SEED_BATCH]
    cdef int64_t pseeds[SEED_BATCH]
    _require_loaded()
    _check_generator(generator)
    if not 3 <= players <= 7:
        raise ValueError(f"players must be 3..7, got {players}")
    memset(sums, 0, sizeof(sums))
    memset(wins, 0, sizeof(wins))
    g = <GameS*>PyMem_Malloc(sizeof(GameS))
    pre = <MT*>PyMem_Malloc(sizeof(MT) * SEED_BATCH)
    try:
        if g == NULL or pre == NULL:
            raise MemoryError()
        with nogil:
            for i in range(games):
                s = seed + i
                if generator == GEN_SM:
                    game_setup_bots(g, players, s, GEN_SM, bots, NULL, NULL)
                else:
                    if i % SEED_BATCH == 0:
                        m = games - i if games - i < SEED_BATCH else SEED_BATCH
                        for t in range(m):
                            prs[t] = &pre[t]
                            pseeds[t] = s + t
                        mt_seed_many(prs, pseeds, m)
                    game_setup_seeded(g, players, s, &pre[i % SEED_BATCH], bots)
                rc = play_random_game(g, bots, &decisions)
                if rc < 0:
                    break
                tally_end(g, totals, treasury, share)
                for p in range(players):
                    sums[p] += totals[p]
                    wins[p] += share[p]
        if rc < 0:
            raise RuntimeError(f"sevenw_core: game {seed + i} failed")
        return (decisions, [sums[p] for p in range(players)],
                [wins[p] for p in range(players)])
    finally:
        PyMem_Free(g)
        PyMem_Free(pre)


# ---------------------------------------------------------------------- step-by-step API

cdef class NativeGame:
    """A game in the compiled core, stepped from Python (for the parity proof).

    Actions are tuples ``(kind, card, left, right)`` with ``kind`` the index in
    ``engine.KINDS``; ``card`` is -1 for ``pass``.
    """

    cdef GameS* g

    def __cinit__(self):
        self.g = <GameS*>PyMem_Malloc(sizeof(GameS))
        if self.g == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.g)

    def __init__(self, int players, int64_t seed, wonders=None, sides=None, guilds=None,
                 int generator=GEN_MT):
        cdef int w[MAXP]
        cdef int sd[MAXP]
        cdef int gd[12]
        cdef int* wp = NULL
        cdef int* sp = NULL
        cdef int* gp = NULL
        cdef int i
        _require_loaded()
        _check_generator(generator)
        if not 3 <= players <= 7:
            raise ValueError(f"players must be 3..7, got {players}")
        if wonders is not None:
            if len(wonders) != players:
                raise ValueError("wonders: one index per player")
            wp = w
            for i in range(players):
                w[i] = wonders[i]
                if not 0 <= w[i] < NWONDERS:
                    raise ValueError("wonders: index out of range")
        if sides is not None:
            if len(sides) != players:
                raise ValueError("sides: one per player")
            sp = sd
            for i in range(players):
                sd[i] = sides[i]
                if sd[i] not in (0, 1):
                    raise ValueError("sides: 0 (A) or 1 (B)")
        if guilds is not None:
            if len(guilds) < players + 2:
                raise ValueError("guilds: players + 2 needed")
            gp = gd
            for i in range(players + 2):
                gd[i] = guilds[i]
        game_setup(self.g, players, seed, generator, wp, sp, gp)

    @property
    def over(self):
        return self.g.phase == PH_OVER

    @property
    def phase(self):
        return PHASES[self.g.phase]

    def to_act(self):
        cdef int players[MAXP]
        cdef int m = to_act(self.g, players)
        return [players[i] for i in range(m)]

    def clone(self):
        """An independent copy of the game (the state is one flat record: a memcpy)."""
        cdef NativeGame copy = NativeGame.__new__(NativeGame)
        memcpy(copy.g, self.g, sizeof(GameS))
        return copy

    def legal(self, int player):
        cdef Act* buf
        cdef int k
        if not 0 <= player < self.g.n:
            return []
        buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
        try:
            k = legal(self.g, player, buf)
            if k < 0:
                raise RuntimeError("sevenw_core: too many legal actions")
            return [(buf[i].kind, buf[i].card, buf[i].left, buf[i].right) for i in range(k)]
        finally:
            PyMem_Free(buf)

    def random_pick(self, int player, int64_t seed):
        """``RandomBot(seed).act``: the action the compiled random bot picks for ``player`` from
        a generator seeded with ``seed`` (drawn by rejection: :func:`random_pick`); None when
        ``player`` has no legal action."""
        cdef Act* buf
        cdef Act a
        cdef SM rng
        if not 0 <= player < self.g.n:
            return None
        sm_seed(&rng, seed)
        buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
        try:
            if random_pick(self.g, player, &rng, buf, &a) < 0:
                return None
            return (a.kind, a.card, a.left, a.right)
        finally:
            PyMem_Free(buf)

    def step(self, actions):
        """Apply ``{player: action}`` for exactly the players of :meth:`to_act` (unchecked)."""
        cdef int players[MAXP]
        cdef Act acts[MAXP]
        cdef int m = to_act(self.g, players), i
        if sorted(actions) != [players[i] for i in range(m)]:
            raise ValueError("actions must be given for exactly the players to act")
        for i in range(m):
            kind, card, left, right = actions[players[i]]
            acts[i].kind = kind
            acts[i].card = card
            acts[i].left = left
            acts[i].right = right
        step(self.g, players, acts, m)
        if self.g.err:
            raise RuntimeError("sevenw_core: an action named a card that was not there")

    def state(self):
        """A canonical summary: (age, turn, phase, hands, discard, cities); see ``fast``."""
        cdef GameS* g = self.g
        cdef City* c
        cities = []
        for p in range(g.n):
            c = &g.cities[p]
            cities.append((
                c.wonder, c.side, c.stages_built, c.coins,
                tuple([c.cards[i] for i in range(c.ncards)]),
                c.shields, c.military, c.defeats, c.revive_pending, c.free_used_age,
                tuple([c.fixed[i] for i in range(7)]), tuple([c.tfixed[i] for i in range(7)]),
                tuple([c.ch[i] for i in range(c.nch)]), tuple([c.tch[i] for i in range(c.ntch)]),
                tuple([c.pl[i] for i in range(7)]), tuple([c.pr[i] for i in range(7)]),
                tuple([c.sci[i] for i in range(3)]), c.wild,
            ))
        return (
            g.age, g.turn, PHASES[g.phase],
            tuple([tuple([g.hands[p][i] for i in range(g.hlen[p])]) for p in range(g.n)]),
            tuple([g.discard[i] for i in range(g.ndiscard)]),
            tuple(cities),
        )

    def payments(self, int player, cost):
        """``Game.payments(player, cost)`` (tests)."""
        cdef int c[7]
        cdef Act* buf
        cdef int k
        for i in range(7):
            c[i] = cost[i]
            if c[i] < 0 or c[i] > 15:
                raise ValueError("cost: 0..15 units per resource")
        buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXPAY)
        cdef const City* nb = (&self.g.before6[0] if self.g.phase == PH_SEVENTH
                               else &self.g.cities[0])
        try:
            k = payments(&self.g.cities[player], &nb[self.g.left[player]],
                         &nb[self.g.right[player]], c, pack7(c), buf, 1 << 30)
            if k < 0:
                raise RuntimeError("sevenw_core: payment search overflow")
            return tuple([(buf[i].left, buf[i].right) for i in range(k)])
        finally:
            PyMem_Free(buf)

    def scores(self):
        """Score rows per seat: (player, military, coins, wonder, civilian, commercial, guilds,
        science, treasury, copied guild card index or -1)."""
        return score_rows(self.g)


cdef int scratch_cities(City* me, City* lc, City* rc, int* c, cost, own_fixed, own_choices,
                        left_fixed, left_choices, right_fixed, right_choices, price_left,
                        price_right) except -1:
    """The cities of a payment question (tests): ``me`` paying ``cost`` (into ``c``) to the left
    ``lc`` and the right ``rc``."""
    cdef int r
    memset(me, 0, sizeof(City))
    memset(lc, 0, sizeof(City))
    memset(rc, 0, sizeof(City))
    if len(own_choices) > MAXCH or len(left_choices) > MAXCH or len(right_choices) > MAXCH:
        raise ValueError("too many either/or productions")
    for r in range(7):
        c[r] = cost[r]
        if c[r] < 0 or c[r] > 15:
            raise ValueError("cost: 0..15 units per resource")
        me.fixed[r] = own_fixed[r]
        lc.tfixed[r] = left_fixed[r]
        rc.tfixed[r] = right_fixed[r]
        me.pl[r] = price_left[r]
        me.pr[r] = price_right[r]
        if not 1 <= me.pl[r] <= 2 or not 1 <= me.pr[r] <= 2:
            raise ValueError("prices: 1 or 2")
    me.pfixed = pack7(me.fixed)
    for m in own_choices:
        add_choice(me, m & 127, False)
    for m in left_choices:
        add_choice(lc, m & 127, True)
    for m in right_choices:
        add_choice(rc, m & 127, True)
    me.prices = city_prices(me)
    lc.ptfixed = pack7(lc.tfixed)
    rc.ptfixed = pack7(rc.tfixed)
    return 0


def payment_bound(cost, own_fixed, own_choices, left_fixed, left_choices, right_fixed,
                  right_choices, price_left, price_right, int budget):
    """``(bound, exact)``: :func:`pay_bound` of this payment question with ``budget`` coins
    (tests: ``payments.payment_bound`` gives the same)."""
    cdef City me, lc, rc
    cdef int c[7]
    cdef bint exact
    cdef int k
    scratch_cities(&me, &lc, &rc, c, cost, own_fixed, own_choices, left_fixed, left_choices,
                   right_fixed, right_choices, price_left, price_right)
    k = pay_bound(&me, &lc, &rc, pack7(c), budget, &exact)
    return k, bool(exact)


def payment_options(cost, own_fixed, own_choices, left_fixed, left_choices, right_fixed,
                    right_choices, price_left, price_right, bint count=False):
    """``payments.payment_options`` with the same arguments, on scratch cities (tests);
    ``count``: only how many there are."""
    cdef City me, lc, rc
    cdef int c[7]
    cdef Act* buf
    cdef int k
    scratch_cities(&me, &lc, &rc, c, cost, own_fixed, own_choices, left_fixed, left_choices,
                   right_fixed, right_choices, price_left, price_right)
    if count:
        k = payments(&me, &lc, &rc, c, pack7(c), NULL, 1 << 30)
        if k < 0:
            raise RuntimeError("sevenw_core: payment search overflow")
        return k
    buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXPAY)
    try:
        k = payments(&me, &lc, &rc, c, pack7(c), buf, 1 << 30)
        if k < 0:
            raise RuntimeError("sevenw_core: payment search overflow")
        return tuple([(buf[i].left, buf[i].right) for i in range(k)])
    finally:
        PyMem_Free(buf)


def kept_masks():
    """The either/or masks whose cities' payment searches are kept (``CHSLOT``; tests)."""
    return sorted([m for m in range(128) if CHSLOT[m] >= 0])


def payment_options_kept(cost, own_fixed, own_choices, left_fixed, left_choices, right_fixed,
                         right_choices, price_left, price_right, int budget):
    """:func:`payment_options` within ``budget`` coins through the searches' kept payments
    (``payments_kept``, tests): the answer asked twice, the second time read from the table
    where the search is kept; ``None`` on a search overflow."""
    cdef City me, lc, rc
    cdef int c[7]
    cdef Act* buf
    cdef int k, t
    scratch_cities(&me, &lc, &rc, c, cost, own_fixed, own_choices, left_fixed, left_choices,
                   right_fixed, right_choices, price_left, price_right)
    _require_loaded()
    buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXPAY)
    try:
        out = []
        for t in range(2):
            k = payments_kept(&me, &lc, &rc, c, pack7(c), buf, budget)
            out.append(None if k < 0 else tuple([(buf[i].left, buf[i].right) for i in range(k)]))
        return tuple(out)
    finally:
        PyMem_Free(buf)


# ---------------------------------------------------------------------- heuristic bot
# A mirror of bots.action_value / HeuristicBot / MctsBot's rollouts, float for float (the
# extension is built with -ffp-contract=off so that no multiply-add is fused).
cdef int CHAIN_TARGETS[MAXCARDS]


ctypedef struct ValT:
    # what action_base reads of a card it builds, 32 bytes (CardT is ~300 bytes, and its rule
    # is read from the yellow and purple cards only); filled by load_chain_targets
    int color
    int vp
    int shields
    int science
    int fixmask                 # the resources it produces fixed units of, a bit each
    int sumfixed                # those units
    int choice                  # an either/or production: 1
    int chains                  # CHAIN_TARGETS


cdef ValT VAL[MAXCARDS]


ctypedef struct CountAt:
    # a Count as build_base_at reads it: each thing counted as the index of its int in a City
    # (a colour's count, the stages built or the defeats: no test per thing), the cities as 0/1
    int nwhat
    int at[4]
    int self_
    int neigh
    int n


cdef CountAt COUNT_AT[MAXCARDS][4]  # a card's rule.cp, then its rule.vpp (load_chain_targets)


cdef inline int count_at(const CountAt* c, const City* me, const City* l,
                         const City* r) noexcept nogil:
    """:func:`count_now` from the card's :data:`COUNT_AT` entry (the same sum: integers)."""
    cdef const int* a = <const int*>me
    cdef const int* b = <const int*>l
    cdef const int* d = <const int*>r
    cdef int total = 0, i, k
    for i in range(c.nwhat):
        k = c.at[i]
        total += c.self_ * a[k] + c.neigh * (b[k] + d[k])
    return total * c.n


cdef int count_index(int what) noexcept:
    """The index, in a City seen as ints, of the int :func:`count_now` adds for ``what``."""
    cdef City c
    cdef const int* field
    if what == STAGE:
        field = &c.stages_built
    elif what == DEFEAT:
        field = &c.defeats
    else:
        field = &c.colors[what]
    return <int>(field - <const int*>&c)


cdef void fill_count_at(CountAt* out, const Count* c) noexcept:
    cdef int i
    out.nwhat = c.nwhat
    for i in range(c.nwhat):
        out.at[i] = count_index(c.what[i])
    out.self_ = 1 if c.self_ else 0
    out.neigh = 1 if c.neigh else 0
    out.n = c.n
cdef unsigned char POP7[128]    # the bits set in each 7-bit mask (no libgcc call in build_base)
for _i in range(128):
    POP7[_i] = bin(_i).count("1")


cdef inline int unsearched_hot(const City* me, const HotT* hot, int coins) noexcept nogil:
    """:func:`unsearched_build` from the card's compact entry (``HOT``: its chain words are
    zero when it has none)."""
    if (me.blds[0] & hot.chain[0]) or (me.blds[1] & hot.chain[1]):
        return 1
    if hot.coins:
        return 1 if coins >= hot.coins else 0
    if not hot.paid:
        return 1
    return -1

# The heuristic's weights (``data.HeuristicWeights.vector()``: triples are per age).
cdef enum:
    W_RES = 0           # resource_new[3]
    W_FIX = 3           # resource_unit[3]
    W_SCI = 6           # science_bonus[3]
    W_TRADE = 9         # trade_bonus[3]
    W_CHOICE = 12       # choice_bonus[3]
    W_CHAIN = 15        # chain_bonus[3]
    W_RATE = 18         # coin_rate
    W_DISCARD = 19
    W_DISCARD_POOR = 20
    W_WONDER = 21
    W_WSHIELD = 22
    W_WSCIENCE = 23
    W_WCHOICE = 24
    W_WSPECIAL = 25     # [3]
    W_WCOPY = 28
    W_WTRADE = 29       # [3]
    W_MWIN = 32
    W_MTIE = 33
    W_MSHIELD = 34
    W_BLUE = 35
    NW = 36

cdef double DEFAULT_W[NW]       # the heuristic every bot plays (load_heuristic)


def load_heuristic(list weights):
    """The default heuristic's weights (``heuristic_weights("default").vector()``)."""
    if len(weights) != NW:
        raise ValueError(f"load_heuristic: {len(weights)} weights, expected {NW}")
    for i, x in enumerate(weights):
        DEFAULT_W[i] = x


cdef int read_weights(object weights, double* out) except -1:
    """``out``: ``weights`` (a list of NW floats), or the default weights when None."""
    if weights is None:
        memcpy(out, DEFAULT_W, sizeof(double) * NW)
        return 0
    if len(weights) != NW:
        raise ValueError(f"{len(weights)} heuristic weights, expected {NW}")
    for i, x in enumerate(weights):
        out[i] = x
    return 0


def load_chain_targets(list targets):
    """How many cards name each card (by index) in their ``chain_from`` (``bots._CHAINS``);
    called after :func:`load_tables`, whose cards it also copies into the card values' table
    (``VAL``)."""
    cdef int i, r
    cdef const Rule* rule
    if len(targets) > MAXCARDS:
        raise ValueError("too many cards")
    _require_loaded()
    memset(VAL, 0, sizeof(VAL))
    memset(COUNT_AT, 0, sizeof(COUNT_AT))
    for i, x in enumerate(targets):
        CHAIN_TARGETS[i] = x
    for i in range(NCARDS):  # the card values' table (action_base), from the loaded cards
        rule = &CARDS[i].rule
        VAL[i].color = rule.color
        VAL[i].vp = rule.vp
        VAL[i].shields = rule.shields
        VAL[i].science = rule.science
        for r in range(7):
            if rule.fixed[r]:
                VAL[i].fixmask |= 1 << r
                VAL[i].sumfixed += rule.fixed[r]
        VAL[i].choice = rule.choice != 0
        VAL[i].chains = CHAIN_TARGETS[i]
        for r in range(rule.ncp):
            fill_count_at(&COUNT_AT[i][r], &rule.cp[r])
        for r in range(rule.nvp):
            fill_count_at(&COUNT_AT[i][rule.ncp + r], &rule.vpp[r])


cdef inline int city_science(const City* c, int extra, int wild) noexcept nogil:
    cdef int s0 = c.sci[0] + (extra == 0), s1 = c.sci[1] + (extra == 1)
    cdef int s2 = c.sci[2] + (extra == 2)
    return science_points(s0, s1, s2, c.wild + wild)


cdef double action_value(const GameS* g, int p, const Act* a, const double* w) noexcept nogil:
    """``bots.action_value`` with the weights ``w`` (``DEFAULT_W``: the heuristic every bot plays)."""
    return value_paid(action_base(g, p, a, w), a, w)


cdef inline double value_paid(double v, const Act* a, const double* w) noexcept nogil:
    """:func:`action_value` from :func:`action_base`: less the coins the action costs."""
    cdef int pay = a.left + a.right
    if a.kind == K_PASS or a.kind == K_DISCARD or a.kind == K_FORFEIT:
        return v
    if a.kind == K_WONDER:
        return v - pay / w[W_RATE]
    return v - (pay + (HOT[a.card].coins if a.kind == K_BUILD else 0)) / w[W_RATE]


cdef double action_base(const GameS* g, int p, const Act* a, const double* w) noexcept nogil:
    """:func:`action_value` before the coins it costs: the same for every payment of one
    (kind, card) (``legal`` lists those one after the other)."""
    cdef const City* me = &g.cities[p]
    cdef int age = g.age
    cdef const Rule* rule
    cdef double v
    if a.kind == K_PASS:
        return 0.0
    if a.kind == K_DISCARD or a.kind == K_FORFEIT:
        return w[W_DISCARD] + (w[W_DISCARD_POOR] if me.coins < 2 else 0.0)
    if a.kind == K_WONDER:
        rule = &WONDERS[me.wonder].st[me.side][me.stages_built].rule
        v = rule.vp + rule.coins / w[W_RATE] + w[W_WSHIELD] * rule.shields + w[W_WONDER]
        v += w[W_WSCIENCE] * rule.science_any + (w[W_WCHOICE] if rule.choice else 0.0)
        if rule.play_seventh or rule.build_from_discard or rule.free_build:
            v += w[W_WSPECIAL + age - 1]
        if rule.copy_guild:
            v += w[W_WCOPY]
        if rule.trade_left:
            v += w[W_WTRADE + age - 1]
        return v
    return build_base(g, p, a.card, w)


ctypedef struct BaseCtx:
    # what build_base reads of the game for one player, found once per decision (the searches
    # value every card of a hand against the same cities)
    const City* me
    const City* lc              # the neighbours now (not ``before6``: as action_base)
    const City* rc
    const double* w
    int age
    int mine                    # the resources the city makes fixed units of, a bit each


cdef inline void base_ctx(BaseCtx* c, const GameS* g, int p, const double* w) noexcept nogil:
    c.me = &g.cities[p]
    c.lc = &g.cities[g.left[p]]
    c.rc = &g.cities[g.right[p]]
    c.w = w
    c.age = g.age
    c.mine = nonzero_bytes(c.me.pfixed)


cdef inline double build_base(const GameS* g, int p, int card, const double* w) noexcept nogil:
    """:func:`action_base` of building ``card`` (paid or free): the card's part
    (:func:`build_base_at`)."""
    cdef BaseCtx c
    base_ctx(&c, g, p, w)
    return build_base_at(&c, card)


cdef double build_base_at(const BaseCtx* c, int card) noexcept nogil:
    """:func:`build_base` from the player's context, which the searches' loops over the hand
    make once."""
    cdef const City* me = c.me
    cdef const City* other
    cdef const double* w = c.w
    cdef int age = c.age, fresh, k
    cdef const Rule* rule
    cdef const ValT* val = &VAL[card]
    cdef double v
    v = <double>val.vp
    if val.color == 0 or val.color == 1:
        # the resources it makes that the city makes no fixed unit of (a bit per non-zero
        # byte of the packed production), and its either/or
        fresh = POP7[val.fixmask & ~c.mine & 0x7F] + val.choice
        v += w[W_RES + age - 1] * fresh + w[W_FIX + age - 1] * val.sumfixed
    elif val.color == BLUE:
        v += w[W_BLUE]
    elif val.color == 4:
        for k in range(2):
            other = c.lc if k == 0 else c.rc
            if me.shields <= other.shields < me.shields + val.shields:
                v += MILITARY_WIN[age - 1] + w[W_MWIN]
            elif me.shields + val.shields == other.shields:
                v += w[W_MTIE]
        v += w[W_MSHIELD] * val.shields
    elif val.color == 5:
        if me.wild == 0 and 0 <= val.science <= 2:
            # science_points' difference with one symbol more, without its calls: the square's
            # 2c + 1, and 7 more where the symbol raises the smallest of the three counts
            k = val.science
            fresh = me.sci[0 if k != 0 else 1]
            if k != 2 and me.sci[2] < fresh:
                fresh = me.sci[2]
            elif k == 2 and me.sci[1] < fresh:
                fresh = me.sci[1]
            v += <double>(2 * me.sci[k] + 1 + (7 if me.sci[k] < fresh else 0)) + w[W_SCI + age - 1]
        else:
            v += <double>(city_science(me, val.science, 0) - city_science(me, -1, 0)) + w[W_SCI + age - 1]
    elif val.color == YELLOW:
        rule = &CARDS[card].rule
        v += rule.coins / w[W_RATE]
        for k in range(rule.ncp):
            v += count_at(&COUNT_AT[card][k], me, c.lc, c.rc) / w[W_RATE]
        for k in range(rule.nvp):
            v += <double>count_at(&COUNT_AT[card][rule.ncp + k], me, c.lc, c.rc)
        if rule.trade_left or rule.trade_right:
            v += w[W_TRADE + age - 1]
        if rule.choice:
            v += w[W_CHOICE + age - 1]
    elif val.color == PURPLE:
        rule = &CARDS[card].rule
        for k in range(rule.nvp):
            v += <double>count_at(&COUNT_AT[card][rule.ncp + k], me, c.lc, c.rc)
        if rule.science_any:
            v += <double>(city_science(me, -1, 1) - city_science(me, -1, 0))
    v += w[W_CHAIN + age - 1] * val.chains
    return v


cdef int heuristic_act(GameS* g, int p, MT* rng, Act* buf, Act* out) noexcept nogil:
    """``HeuristicBot.act``: the best action value plus ``rng.random() * 1e-3``."""
    return heuristic_act_noisy(g, p, rng, buf, out, 1e-3, DEFAULT_W)


ctypedef fused Draws:
    MT
    SM


cdef inline double draw_random(Draws* rng) noexcept nogil:
    """The next float in ``[0, 1)`` of either generator (chosen when compiling)."""
    if Draws is MT:
        return mt_random(rng)
    else:
        return sm_random(rng)


cdef inline bint noisy_better(Draws* rng, double v, double noise, bint found, double best_v,
                              double* out) noexcept nogil:
    """Whether ``v`` plus the next draw times ``noise`` (into ``out``) beats ``best_v`` (always
    when not ``found``).  With SplitMix64 the draw is skipped (its state moved on, as the draw
    does) when it cannot: ``fl(v + d * noise) <= fl(v + noise)`` for every ``d`` in [0, 1)
    (``d * noise <= noise``, and rounding is monotone), so ``fl(v + noise) < best_v`` decides
    without it (a NaN anywhere: not better either way)."""
    if Draws is SM:
        if found and not v + noise >= best_v:
            rng.s += 0x9E3779B97F4A7C15ULL
            return False
    out[0] = v + draw_random(rng) * noise
    return not found or out[0] > best_v


cdef int heuristic_act_noisy(GameS* g, int p, Draws* rng, Act* buf, Act* out,
                             double noise, const double* w) noexcept nogil:
    """``HeuristicBot.act`` with its ``noise`` and weights ``w``: the best action value plus
    ``rng.random() * noise`` — from the bot's Mersenne Twister, or from a SplitMix64 (the search
    policy of ``IsmctsBot``: ``bots.ismcts._SearchPolicy``).

    The actions are valued as ``legal()`` would list them, in its order (one draw each, the
    same draws), without listing them: a card's payments are searched into a small buffer and
    valued from it, and a wonder stage's base and a discard's are valued once (they do not
    depend on the card).  The revive phase goes through the list
    (:func:`heuristic_act_listed`)."""
    cdef City* me = &g.cities[p]
    cdef const City* nb
    cdef const City* lc
    cdef const City* rc
    cdef const HotT* hot
    cdef const StageT* stage
    cdef Act stage_pays[MAXPAY]
    cdef double stage_v[MAXPAY]
    cdef Act pays[MAXPAY]
    cdef Act a
    cdef int k = 0, i, j, idx, coins = me.coins, nstage = 0, npay, nstage_walk
    cdef bint free_ok, found = False, skips
    cdef double v, best_v = 0.0, base, vstage = 0.0, vdiscard
    cdef double smax = -INFINITY    # the best of the stage's payments' values
    cdef uint64_t seen[2]
    cdef BaseCtx bctx
    if g.phase != PH_MAIN and g.phase != PH_SEVENTH:
        return heuristic_act_listed(g, p, rng, buf, out, noise, w)
    if g.hlen[p] == 0 or (g.phase == PH_SEVENTH and not me.seventh):
        return -1
    nb = &g.before6[0] if g.phase == PH_SEVENTH else &g.cities[0]
    lc = &nb[g.left[p]]
    rc = &nb[g.right[p]]
    if me.stages_built < me.nstages:
        stage = &WONDERS[me.wonder].st[me.side][me.stages_built]
        # every payment within the coins (payments_kept answers those only)
        nstage = payments_kept(me, lc, rc, stage.cost, stage.pcost, stage_pays, coins)
        if nstage < 0:
            return -1
        if nstage:
            a.kind = K_WONDER
            a.card = g.hands[p][0]
            vstage = action_base(g, p, &a, w)
            for j in range(nstage):  # each payment's value, the same for every card
                a.left = stage_pays[j].left
                a.right = stage_pays[j].right
                stage_v[j] = value_paid(vstage, &a, w)
                if stage_v[j] > smax:
                    smax = stage_v[j]
    a.kind = K_DISCARD
    a.card = g.hands[p][0]
    vdiscard = action_base(g, p, &a, w)
    base_ctx(&bctx, g, p, w)
    free_ok = me.free_build and me.free_used_age != g.age and g.phase == PH_MAIN
    # SplitMix64 skips the draws that cannot win (noisy_better); a run of them at once where
    # the best of the run cannot: a build's payments when its base cannot (each is worth at
    # most its base with a positive coin rate: value_paid subtracts coins), the stage's
    # payments when their best cannot (fl(v + noise) is monotone in v, and best_v does not
    # change over skipped draws)
    skips = False
    if Draws is SM:
        skips = w[W_RATE] > 0
    seen[0] = 0
    seen[1] = 0
    for i in range(g.hlen[p]):
        idx = g.hands[p][i]
        if not first_seen(seen, idx):
            continue
        hot = &HOT[idx]
        a.card = idx
        if not has_bld(me, hot.building):
            a.kind = K_BUILD
            a.left = 0
            a.right = 0
            npay = -unsearched_hot(me, hot, coins)  # -1: no payment to choose, 0: none
            if npay > 0:  # paid in resources: the payments within the coins (0: none)
                npay = payments_kept(me, lc, rc, CARDS[idx].cost, hot.pcost, pays, coins)
                if npay < 0:
                    return -1
            if npay != 0:  # a build at least: its base valued once
                base = build_base_at(&bctx, idx)
                if npay < 0:
                    k += 1
                    if noisy_better(rng, value_paid(base, &a, w), noise, found, best_v, &v):
                        found = True
                        best_v = v
                        out[0] = a
                elif skips and found and not base + noise >= best_v:
                    k += npay
                    if Draws is SM:
                        rng.s += <uint64_t>npay * 0x9E3779B97F4A7C15ULL
                else:
                    for j in range(npay):
                        a.left = pays[j].left
                        a.right = pays[j].right
                        k += 1
                        if noisy_better(rng, value_paid(base, &a, w), noise, found, best_v, &v):
                            found = True
                            best_v = v
                            out[0] = a
            if free_ok:
                a.kind = K_FREE
                a.left = 0
                a.right = 0
                k += 1
                if npay == 0:  # not valued above
                    base = build_base_at(&bctx, idx)
                if noisy_better(rng, value_paid(base, &a, w), noise, found, best_v, &v):
                    found = True
                    best_v = v
                    out[0] = a
        if skips and found and not smax + noise >= best_v:
            k += nstage
            if Draws is SM:
                rng.s += <uint64_t>nstage * 0x9E3779B97F4A7C15ULL
            nstage_walk = 0
        else:
            nstage_walk = nstage
        for j in range(nstage_walk):
            k += 1
            if noisy_better(rng, stage_v[j], noise, found, best_v, &v):
                found = True
                best_v = v
                out[0].kind = K_WONDER
                out[0].card = idx
                out[0].left = stage_pays[j].left
                out[0].right = stage_pays[j].right
        a.kind = K_DISCARD
        a.left = 0
        a.right = 0
        k += 1
        if noisy_better(rng, vdiscard, noise, found, best_v, &v):
            found = True
            best_v = v
            out[0] = a
    return 0 if found and k <= MAXACT else -1


cdef int heuristic_act_listed(GameS* g, int p, Draws* rng, Act* buf, Act* out,
                              double noise, const double* w) noexcept nogil:
    """:func:`heuristic_act_noisy` from ``legal()``'s list: the revive phase."""
    cdef int k = legal(g, p, buf), i, best = -1
    cdef double v, best_v = 0.0, base = 0.0, vstage = 0.0, vdiscard = 0.0
    cdef bint stage_done = False, discard_done = False
    if k <= 0:
        return -1
    for i in range(k):
        if i == 0 or buf[i].kind != buf[i - 1].kind or buf[i].card != buf[i - 1].card:
            # a wonder stage's base and a discard's do not depend on the card: valued once
            if buf[i].kind == K_WONDER:
                if not stage_done:
                    vstage = action_base(g, p, &buf[i], w)
                    stage_done = True
                base = vstage
            elif buf[i].kind == K_DISCARD:
                if not discard_done:
                    vdiscard = action_base(g, p, &buf[i], w)
                    discard_done = True
                base = vdiscard
            else:
                base = action_base(g, p, &buf[i], w)
        v = value_paid(base, &buf[i], w) + draw_random(rng) * noise
        if best < 0 or v > best_v:
            best = i
            best_v = v
    out[0] = buf[best]
    return 0


cdef inline void mt_key_terms(uint64_t a, uint32_t* ka, uint32_t* kb) noexcept nogil:
    """What ``init_by_array``'s first loop adds at odd and at even ``i`` (``key[j] + j``) for the
    key of ``a``'s 32-bit words: ``j = (i - 1) % keylen``, so (word 0, word 1 + 1) with two words
    and word 0 at every ``i`` with one (``a < 2**32``)."""
    ka[0] = <uint32_t>(a & 0xffffffffU)
    kb[0] = <uint32_t>(a >> 32) + 1U if a >> 32 else ka[0]


cdef void mt_seed_u64(MT* r, uint64_t a) noexcept nogil:
    """``random.seed(a)`` for ``0 <= a < 2**64`` (the searches' generators): the state of
    :func:`mt_init_by_array` with the key of ``a``'s 32-bit words (one or two), in straight
    loops: the first from ``MT_BASE`` into ``r`` (no copy before), the last word carried in a
    register, the key's term by the parity of ``i`` (:func:`mt_key_terms`) and the wraps of
    ``init_by_array`` (``mt[0] = mt[N - 1]``, then ``i = 1`` once more) unrolled."""
    cdef uint32_t ka, kb, prev = MT_BASE.mt[0]
    cdef uint32_t* mt = r.mt
    cdef const uint32_t* base = MT_BASE.mt
    cdef int i = 1
    mt_key_terms(a, &ka, &kb)
    # the first loop: i = 1 .. N - 1 (N - 1 is odd: pairs, then i = N - 1), then the wrap and
    # its 624th step at i = 1 (j = (N - 1) % keylen: the even term)
    while i < MT_N - 1:
        prev = (base[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + ka
        mt[i] = prev
        prev = (base[i + 1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kb
        mt[i + 1] = prev
        i += 2
    prev = (base[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + ka
    mt[i] = prev
    mt[0] = prev
    prev = (mt[1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kb
    mt[1] = prev
    # the second loop: i = 2 .. N - 1, then the wrap and i = 1
    for i in range(2, MT_N):
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - <uint32_t>i
        mt[i] = prev
    mt[0] = prev
    mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - 1U
    mt[0] = 0x80000000U
    r.index = MT_BASE.index
    r.fresh = MT_BASE.fresh
    r.lazy = MT_BASE.lazy


cdef void mt_seed_u64_pair(MT* r, uint64_t a, MT* q, uint64_t b) noexcept nogil:
    """``mt_seed_u64(r, a)`` and ``mt_seed_u64(q, b)`` in lockstep: each seeding is one chain
    of dependent steps (a multiplication in each), two chains stepped together overlap."""
    cdef uint32_t ka, kb, qa, qb, prev = MT_BASE.mt[0], qprev = MT_BASE.mt[0]
    cdef uint32_t* mt = r.mt
    cdef uint32_t* mq = q.mt
    cdef const uint32_t* base = MT_BASE.mt
    cdef int i = 1
    mt_key_terms(a, &ka, &kb)
    mt_key_terms(b, &qa, &qb)
    while i < MT_N - 1:
        prev = (base[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + ka
        qprev = (base[i] ^ ((qprev ^ (qprev >> 30)) * 1664525U)) + qa
        mt[i] = prev
        mq[i] = qprev
        prev = (base[i + 1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kb
        qprev = (base[i + 1] ^ ((qprev ^ (qprev >> 30)) * 1664525U)) + qb
        mt[i + 1] = prev
        mq[i + 1] = qprev
        i += 2
    prev = (base[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + ka
    qprev = (base[i] ^ ((qprev ^ (qprev >> 30)) * 1664525U)) + qa
    mt[i] = prev
    mq[i] = qprev
    mt[0] = prev
    mq[0] = qprev
    prev = (mt[1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kb
    qprev = (mq[1] ^ ((qprev ^ (qprev >> 30)) * 1664525U)) + qb
    mt[1] = prev
    mq[1] = qprev
    for i in range(2, MT_N):
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - <uint32_t>i
        qprev = (mq[i] ^ ((qprev ^ (qprev >> 30)) * 1566083941U)) - <uint32_t>i
        mt[i] = prev
        mq[i] = qprev
    mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - 1U
    mq[1] = (mq[1] ^ ((qprev ^ (qprev >> 30)) * 1566083941U)) - 1U
    mt[0] = 0x80000000U
    mq[0] = 0x80000000U
    r.index = MT_BASE.index
    r.fresh = MT_BASE.fresh
    r.lazy = MT_BASE.lazy
    q.index = MT_BASE.index
    q.fresh = MT_BASE.fresh
    q.lazy = MT_BASE.lazy


def mt_state_u64(uint64_t seed, other=None):
    """The state :func:`mt_seed_u64` seeds (the searches' generators), as
    ``random.Random(seed).getstate()[1]`` (tests); ``other`` (a seed): seeded by
    :func:`mt_seed_u64_pair` beside a generator seeded with ``other``, both states."""
    cdef MT r
    cdef MT q
    if other is None:
        mt_seed_u64(&r, seed)
        return tuple([r.mt[i] for i in range(MT_N)]) + (r.index,)
    mt_seed_u64_pair(&r, seed, &q, <uint64_t>other)
    return (tuple([r.mt[i] for i in range(MT_N)]) + (r.index,),
            tuple([q.mt[i] for i in range(MT_N)]) + (q.index,))


cdef inline uint64_t mt_bits64(MT* r) noexcept nogil:
    """``getrandbits(64)``: the first word is the low one."""
    cdef uint64_t lo = mt_next(r)
    cdef uint64_t hi = mt_next(r)
    return lo | (hi << 32)


cdef int play_bots_game(GameS* g, SM* rbots, MT* hbots, const int* kinds,
                        int64_t* decisions) noexcept nogil:
    """Play to the end; seat ``p`` is a random (0) bot with generator ``rbots[p]`` or a heuristic
    (1) one with ``hbots[p]``."""
    cdef Act buf[MAXACT]
    cdef Act chosen[MAXP]
    cdef int players[MAXP]
    cdef int slots[MAXP]
    cdef int m, i, p, k
    while g.phase != PH_OVER:
        m = to_act(g, players)
        for i in range(m):
            p = players[i]
            if kinds[p]:
                slots[i] = -1
                if heuristic_act(g, p, &hbots[p], buf, &chosen[i]) < 0:
                    return -1
            else:
                slots[i] = random_pick(g, p, &rbots[p], buf, &chosen[i])
                if slots[i] < 0:
                    return -1
        decisions[0] += m
        step_at(g, players, chosen, slots, m)
        if g.err:
            return -1
    return 0


cdef void determinize(GameS* sim, int player, uint64_t seed, SM* policy) noexcept nogil:
    """The start of one simulation of ``MctsBot.act``: the others' hands shuffled together,
    the game's generator reseeded, ``policy`` (the heuristic's noise, a SplitMix64) seeded with
    ``seed``.  The same for every candidate of one round: :func:`rollouts` does it once and
    copies the result (it was done per candidate, three Mersenne Twisters seeded each time: a
    tenth of the time)."""
    cdef MT* rng = &sim.rng  # scratch: the generator to shuffle with, seeded with ``seed``
    sm_seed(policy, <int64_t>seed)
    sim.gen = GEN_MT  # a re-deal's generator, whatever the game's (MctsBot: random.Random)
    mt_seed_u64(rng, seed)
    rng.fresh = 1  # the shuffle draws a few dozen words: its first generation twisted lazily
    deal_others(sim, player, rng)
    if sim.age < 3:  # in the third age no deck is dealt again: the generator is not read
        mt_seed_u64(&sim.rng, mt_bits64(rng))
        sim.rng.fresh = 1  # the future decks: a shuffle an age (mt_next's lazy first generation)


cdef void deal_others(GameS* sim, int player, MT* rng) noexcept nogil:
    """:func:`determinize`'s re-deal: the others' hands shuffled together with ``rng``."""
    cdef int others[MAXP]
    cdef int pool[MAXP * HANDMAX]
    cdef int no = 0, npool = 0, q, i, k, m
    for q in range(sim.n):
        if q != player and sim.hlen[q]:
            others[no] = q
            no += 1
            for i in range(sim.hlen[q]):
                pool[npool] = sim.hands[q][i]
                npool += 1
    mt_shuffle(rng, pool, npool)
    k = 0
    for i in range(no):
        q = others[i]
        for m in range(sim.hlen[q]):
            sim.hands[q][m] = pool[k]
            k += 1


cdef int others_first(GameS* det, int player, SM* policy, Act* buf, int* order,
                      Act* chosen) noexcept nogil:
    """The first step of a simulation of ``MctsBot.act`` without the candidate: the others to
    act, in seat order, each the heuristic's move (drawing from ``policy``) into ``order`` and
    ``chosen``; their count, or -1.  The same for every candidate of one round (the same
    determinization, the same policy draws): :func:`rollouts` makes them once and
    :func:`rollout_from` plays each candidate beside them."""
    cdef int players[MAXP]
    cdef int q, i, k = 0, m = to_act(det, players)
    for i in range(m):
        q = players[i]
        if q == player:
            continue
        if heuristic_act_noisy(det, q, policy, buf, &chosen[k], 1e-3, DEFAULT_W) < 0:
            return -1
        order[k] = q
        k += 1
    return k


cdef double rollout_from(GameS* sim, int player, const Act* cand, SM* policy, Act* buf,
                         const int* first_order, const Act* first, int nfirst) noexcept nogil:
    """The rest of one simulation on ``sim`` after :func:`determinize`: play ``cand`` beside
    the others' first moves (:func:`others_first`, ``policy`` as it left it), then the heuristic
    (drawing from ``policy``) to the end; the reward."""
    cdef int players[MAXP]
    cdef int order[MAXP]
    cdef Act chosen[MAXP]
    cdef int q, i, m, mine = 0, best_other = -1000000, total
    cdef ScoreS sc
    # first step: the others in seat order, then the candidate (the dict order of MctsBot)
    for i in range(nfirst):
        order[i] = first_order[i]
        chosen[i] = first[i]
    order[nfirst] = player
    chosen[nfirst] = cand[0]
    step(sim, order, chosen, nfirst + 1)
    while sim.phase != PH_OVER:
        m = to_act(sim, players)
        for i in range(m):
            if heuristic_act_noisy(sim, players[i], policy, buf, &chosen[i], 1e-3,
                                      DEFAULT_W) < 0:
                return -1e300
        step(sim, players, chosen, m)
        if sim.err:
            return -1e300
    for q in range(sim.n):
        score_city(&sim.cities[q], &sim.cities[sim.left[q]], &sim.cities[sim.right[q]], &sc)
        total = total_of(&sc)
        if q == player:
            mine = total
        elif total > best_other:
            best_other = total
    total = mine - best_other
    return total + (10.0 if total > 0 else 5.0 if total == 0 else 0.0)


def simulate_bots(int players, int games, int64_t seed, kinds, int generator=GEN_MT):
    """Like :func:`simulate_random` with seat ``p`` a random (0) or heuristic (1) bot seeded
    ``(seed + i) * 1000 + p``; returns (decisions, score sums, wins)."""
    cdef GameS* g
    cdef SM rbots[MAXP]
    cdef MT bots[MAXP]
    cdef int kind[MAXP]
    cdef int64_t decisions = 0, s
    cdef int64_t sums[MAXP]
    cdef double wins[MAXP]
    cdef int totals[MAXP]
    cdef int treasury[MAXP]
    cdef double share[MAXP]
    cdef int i, p, rc = 0
    _require_loaded()
    _check_generator(generator)
    if not 3 <= players <= 7 or len(kinds) != players:
        raise ValueError("players must be 3..7 with one bot kind each")
    for p in range(players):
        kind[p] = kinds[p]
    memset(sums, 0, sizeof(sums))
    memset(wins, 0, sizeof(wins))
    g = <GameS*>PyMem_Malloc(sizeof(GameS))
    try:
        with nogil:
            for i in range(games):
                s = seed + i
                game_setup_bots(g, players, s, generator, rbots, bots, kind)
                rc = play_bots_game(g, rbots, bots, kind, &decisions)
                if rc < 0:
                    break
                tally_end(g, totals, treasury, share)
                for p in range(players):
                    sums[p] += totals[p]
                    wins[p] += share[p]
        if rc < 0:
            raise RuntimeError(f"sevenw_core: game {seed + i} failed")
        return (decisions, [sums[p] for p in range(players)],
                [wins[p] for p in range(players)])
    finally:
        PyMem_Free(g)


def heuristic_games(int players, int games, int64_t seed, list weights):
    """``games`` games of heuristic bots seeded like :func:`simulate_bots` (game ``i``: seed
    ``seed + i``, seat ``p``'s bot ``(seed + i) * 1000 + p``), seat ``p`` valuing actions with
    ``weights[p]`` (a list of the heuristic's weights, None: the default).  Returns per game the
    (total, coins) of every seat (for tuning the weights by self-play)."""
    cdef GameS* g
    cdef MT bots[MAXP]
    cdef int kind[MAXP]
    cdef double* w
    cdef Act buf[MAXACT]
    cdef Act chosen[MAXP]
    cdef int pl[MAXP]
    cdef int totals[MAXP]
    cdef int treasury[MAXP]
    cdef double share[MAXP]
    cdef int i, p, m, j, rc = 0
    cdef int64_t s
    _require_loaded()
    if not 3 <= players <= 7 or len(weights) != players:
        raise ValueError("players must be 3..7 with one set of weights each")
    w = <double*>PyMem_Malloc(sizeof(double) * NW * MAXP)
    g = <GameS*>PyMem_Malloc(sizeof(GameS))
    out = []
    try:
        for p in range(players):
            read_weights(weights[p], &w[p * NW])
            kind[p] = 1
        for i in range(games):
            s = seed + i
            with nogil:
                game_setup_bots(g, players, s, GEN_MT, NULL, bots, kind)
                while g.phase != PH_OVER:
                    m = to_act(g, pl)
                    for j in range(m):
                        p = pl[j]
                        if heuristic_act_noisy(g, p, &bots[p], buf, &chosen[j], 1e-3,
                                               &w[p * NW]) < 0:
                            rc = -1
                            break
                    if rc < 0:
                        break
                    step(g, pl, chosen, m)
                    if g.err:
                        rc = -1
                        break
            if rc < 0:
                raise RuntimeError(f"sevenw_core: game {s} failed")
            tally_end(g, totals, treasury, share)
            out.append([(totals[p], treasury[p]) for p in range(players)])
        return out
    finally:
        PyMem_Free(g)
        PyMem_Free(w)


cdef void import_city(City* c, tuple row) except *:
    (wonder, side, stages_built, coins, cards, colors, fixed, tfixed, choices, tchoices,
     pl, pr, shields, sci, wild, military, defeats, blue_vp, wonder_vp, free_build,
     free_used_age, seventh, copy_guild, revive_pending) = row
    cdef int i, r, s, b
    city_init(c, wonder, side)
    if len(cards) > MAXCITY or len(choices) > MAXCH or len(tchoices) > MAXCH:
        raise ValueError("import_game: city too large")
    c.stages_built = stages_built
    c.coins = coins
    for i, x in enumerate(cards):
        c.cards[i] = x
        b = CARDS[x].building
        c.blds[b >> 6] |= (<uint64_t>1) << (b & 63)
    c.ncards = len(cards)
    for r in range(7):
        c.colors[r] = colors[r]
        c.fixed[r] = fixed[r]
        c.tfixed[r] = tfixed[r]
        c.pl[r] = pl[r]
        c.pr[r] = pr[r]
    c.pfixed = pack7(c.fixed)
    c.ptfixed = pack7(c.tfixed)
    c.prices = city_prices(c)
    for x in choices:
        add_choice(c, x, False)
    for x in tchoices:
        c.tch[c.ntch] = x
        c.ntch += 1
        for s in range(1, 128):
            if x & s:
                c.thall[s] += 1
        c.tchcode = chcode_add(c.tchcode, x)
    c.shields = shields
    for r in range(3):
        c.sci[r] = sci[r]
    c.wild = wild
    c.military = military
    c.defeats = defeats
    c.blue_vp = blue_vp
    c.wonder_vp = wonder_vp
    c.free_build = free_build
    c.free_used_age = free_used_age
    c.seventh = seventh
    c.copy_guild = copy_guild
    c.revive_pending = revive_pending


def import_game(state):
    """A :class:`NativeGame` holding an engine state (``fast.engine_state``; no withdrawal)."""
    cdef NativeGame ng = NativeGame.__new__(NativeGame)
    cdef GameS* g = ng.g
    cdef int p, i
    _require_loaded()
    before6 = income6 = ()
    if len(state) == 10:  # the form before the turn-6 snapshot existed
        n, age, turn, phase, revive_end, guild_draw, mt, hands, discard, cities = state
    else:
        (n, age, turn, phase, revive_end, guild_draw, mt, hands, discard, cities, before6,
         income6) = state
    memset(g, 0, sizeof(GameS))
    if not 3 <= n <= 7 or len(hands) != n or len(cities) != n or len(mt) not in (1, MT_N + 1):
        raise ValueError("import_game: malformed state")
    if len(before6) not in (0, n) or len(income6) not in (0, n):
        raise ValueError("import_game: malformed state")
    g.n = n
    g.age = age
    g.turn = turn
    g.phase = phase
    g.revive_end = revive_end
    for i, x in enumerate(guild_draw[:12]):
        g.guild_draw[i] = x
    if len(mt) == 1:  # SplitMix64's state (generators.SplitMixRandom)
        g.gen = GEN_SM
        g.srng.s = <uint64_t>mt[0]
    else:
        for i in range(MT_N):
            g.rng.mt[i] = mt[i]
        g.rng.index = mt[MT_N]  # words from index on are twisted already (Python's getstate)
        g.rng.fresh = 0
        g.rng.lazy = 0
    set_neighbours(g)
    if len(discard) > MAXDISCARD:
        raise ValueError("import_game: discard pile too large")
    for i, x in enumerate(discard):
        g.discard[i] = x
    g.ndiscard = len(discard)
    for p in range(n):
        if len(hands[p]) > HANDMAX:
            raise ValueError("import_game: hand too large")
        for i, x in enumerate(hands[p]):
            g.hands[p][i] = x
        g.hlen[p] = len(hands[p])
        import_city(&g.cities[p], tuple(cities[p]))
    if before6:
        g.has6 = 1
        for p in range(n):
            import_city(&g.before6[p], tuple(before6[p]))
    for p, x in enumerate(income6):
        g.income6[p] = x
    return ng


def rollouts(NativeGame base, int player, list cands, uint64_t seed):
    """One round of ``MctsBot``: the reward of every candidate ``(kind, card, left, right)``
    on the same determinization ``seed``."""
    cdef GameS* sim = <GameS*>PyMem_Malloc(sizeof(GameS))
    cdef GameS* det = <GameS*>PyMem_Malloc(sizeof(GameS))
    cdef SM* seeded = <SM*>PyMem_Malloc(sizeof(SM))
    cdef SM* policy = <SM*>PyMem_Malloc(sizeof(SM))
    cdef Act* buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
    cdef Act c
    cdef double r
    cdef int first_order[MAXP]
    cdef Act first[MAXP]
    cdef int nfirst
    out = []
    try:
        if sim == NULL or det == NULL or seeded == NULL or policy == NULL or buf == NULL:
            raise MemoryError()
        memcpy(det, base.g, sizeof(GameS))
        with nogil:
            determinize(det, player, seed, seeded)
            nfirst = others_first(det, player, seeded, buf, first_order, first)
        for cand in cands:
            if nfirst < 0:
                raise RuntimeError("sevenw_core: rollout failed")
            c.kind, c.card, c.left, c.right = cand
            copy_play(sim, det, det.age < 3)
            policy[0] = seeded[0]
            with nogil:
                r = rollout_from(sim, player, &c, policy, buf, first_order, first, nfirst)
            if r < -1e299:
                raise RuntimeError("sevenw_core: rollout failed")
            out.append(r)
        return out
    finally:
        PyMem_Free(sim)
        PyMem_Free(det)
        PyMem_Free(seeded)
        PyMem_Free(policy)
        PyMem_Free(buf)


def rollouts_summed(NativeGame base, int player, list cands, list seeds):
    """``len(seeds)`` rounds of ``MctsBot`` in one call: per candidate ``(kind, card, left,
    right)`` the sum of its rewards over the rounds, added round after round from 0.0 (the
    rewards of :func:`rollouts` with each seed in turn, summed in the same order)."""
    cdef GameS* sim = <GameS*>PyMem_Malloc(sizeof(GameS))
    cdef GameS* det = <GameS*>PyMem_Malloc(sizeof(GameS))
    cdef SM* seeded = <SM*>PyMem_Malloc(sizeof(SM))
    cdef SM* policy = <SM*>PyMem_Malloc(sizeof(SM))
    cdef Act* buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
    cdef int nfirst, i, k = len(cands)
    cdef Act* c = <Act*>PyMem_Malloc(sizeof(Act) * (k + 1))
    cdef double* tot = <double*>PyMem_Malloc(sizeof(double) * (k + 1))
    cdef double r
    cdef int first_order[MAXP]
    cdef Act first[MAXP]
    cdef int n = len(seeds), t
    cdef uint64_t* sd = <uint64_t*>PyMem_Malloc(sizeof(uint64_t) * (n + 1))
    cdef MT* scratch = <MT*>PyMem_Malloc(sizeof(MT) * 2)
    cdef MT* cur
    try:
        if (sim == NULL or det == NULL or seeded == NULL or policy == NULL or buf == NULL
                or c == NULL or tot == NULL or sd == NULL or scratch == NULL):
            raise MemoryError()
        for i in range(k):
            c[i].kind, c[i].card, c[i].left, c[i].right = cands[i]
            tot[i] = 0.0
        for t in range(n):
            sd[t] = seeds[t]
        # determinize round after round, the next round's scratch generator seeded beside this
        # round's future decks (two independent chains in lockstep: mt_seed_u64_pair)
        if n:
            mt_seed_u64(&scratch[0], sd[0])
        for t in range(n):
            memcpy(det, base.g, sizeof(GameS))
            cur = &scratch[t & 1]
            with nogil:
                # determinize(det, player, sd[t], seeded), its scratch generator seeded before
                sm_seed(seeded, <int64_t>sd[t])
                det.gen = GEN_MT
                cur.fresh = 1
                deal_others(det, player, cur)
                if det.age < 3:
                    if t + 1 < n:
                        mt_seed_u64_pair(&det.rng, mt_bits64(cur), &scratch[(t + 1) & 1],
                                         sd[t + 1])
                    else:
                        mt_seed_u64(&det.rng, mt_bits64(cur))
                    det.rng.fresh = 1
                else:
                    memcpy(&det.rng, cur, sizeof(MT))  # as determinize leaves it (not read)
                    if t + 1 < n:
                        mt_seed_u64(&scratch[(t + 1) & 1], sd[t + 1])
                nfirst = others_first(det, player, seeded, buf, first_order, first)
            if nfirst < 0:
                raise RuntimeError("sevenw_core: rollout failed")
            for i in range(k):
                copy_play(sim, det, det.age < 3)
                policy[0] = seeded[0]
                with nogil:
                    r = rollout_from(sim, player, &c[i], policy, buf, first_order, first, nfirst)
                if r < -1e299:
                    raise RuntimeError("sevenw_core: rollout failed")
                tot[i] += r
        return [tot[i] for i in range(k)]
    finally:
        PyMem_Free(sd)
        PyMem_Free(scratch)
        PyMem_Free(c)
        PyMem_Free(tot)
        PyMem_Free(sim)
        PyMem_Free(det)
        PyMem_Free(seeded)
        PyMem_Free(policy)
        PyMem_Free(buf)


def heuristic_values(NativeGame ng, int player, int64_t seed, weights=None):
    """``[action_value(a, w) for a in legal]`` and the action ``HeuristicBot(seed, weights=w)``
    picks (tests; ``weights``: a list of the heuristic's weights, None: the default)."""
    cdef Act* buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
    cdef Act* buf2 = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
    cdef Act chosen
    cdef MT rng
    cdef int k
    cdef double w[NW]
    read_weights(weights, w)
    try:
        k = legal(ng.g, player, buf)
        if k <= 0:
            raise ValueError("no legal action")
        values = [action_value(ng.g, player, &buf[i], w) for i in range(k)]
        mt_seed64(&rng, seed)
        heuristic_act_noisy(ng.g, player, &rng, buf2, &chosen, 1e-3, w)
        return values, (chosen.kind, chosen.card, chosen.left, chosen.right)
    finally:
        PyMem_Free(buf)
        PyMem_Free(buf2)


# ---------------------------------------------------------------------- information-set search

cdef int heuristic_step(GameS* g, int player, const Act* mine, SM* policy, Act* buf,
                        double noise, int own, const double* own_w,
                        const double* opp_w, double opp_noise,
                        const Act* forced=NULL) noexcept nogil:
    """One step: ``player`` (when to act) plays ``mine``, everyone else the heuristic (see
    ``heuristic_act_noisy``): seat ``own`` with the weights ``own_w`` and ``noise``, the
    others with ``opp_w`` and ``opp_noise`` -- except the seats ``q`` with a move in
    ``forced[q]`` (kind >= 0; ``forced`` NULL: none), which play it."""
    cdef int players[MAXP]
    cdef Act chosen[MAXP]
    cdef int m = to_act(g, players), i
    for i in range(m):
        if forced != NULL and players[i] != player and forced[players[i]].kind >= 0:
            chosen[i] = forced[players[i]]
        elif players[i] == player:
            if mine == NULL:
                return -1
            chosen[i] = mine[0]
        elif players[i] == own:
            if heuristic_act_noisy(g, own, policy, buf, &chosen[i], noise, own_w) < 0:
                return -1
        elif heuristic_act_noisy(g, players[i], policy, buf, &chosen[i], opp_noise,
                                    opp_w) < 0:
            return -1
    step(g, players, chosen, m)
    return -1 if g.err else 0


cdef bint acting(const GameS* g, int player) noexcept nogil:
    cdef int players[MAXP]
    cdef int m = to_act(g, players), i
    for i in range(m):
        if players[i] == player:
            return True
    return False


cdef int end_margin(const GameS* g, int player, bint* win, bint* tie) noexcept nogil:
    """The player's margin to the best other total at the end; whether it wins alone, or ties
    for the win, on (total, coins) (see ``tally_end``)."""
    cdef int totals[MAXP]
    cdef int treasury[MAXP]
    cdef double share[MAXP]
    cdef int nwin = tally_end(g, totals, treasury, share), q, best_other = -1000000
    for q in range(g.n):
        if q != player and totals[q] > best_other:
            best_other = totals[q]
    win[0] = share[player] > 0 and nwin == 1
    tie[0] = share[player] > 0 and nwin > 1
    return totals[player] - best_other


# The search of ``agon.games.seven_wonders.bots.IsmctsBot`` with its tree in C: re-deal,
# selection, expansion, play-out and back-propagation without Python in between.  The bot's
# Python fallback (``bots._PythonIsmcts``) makes the same draws in the same order, so both
# choose the same move for the same seed and iteration budget (tests/games/seven_wonders).

cdef enum:
    ROOTMAX = 32          # root candidates
    POOLMAX = 128         # cards a re-deal draws the unseen hands from
    NSEEDS = 20           # policy seeds per round (one per depth, cycled)
    NARMS = 8 * (MAXCARDS + 1)  # an other player's moves now, by (card, kind): arm_of
    OPPDEPTHMAX = 32      # steps of a play-out in which the other players use their bandits

ctypedef struct SEdge:
    int kind
    int card
    int visits
    int avail
    double total
    int child               # node below, -1 before the edge's first play-out
    int next                # the node's next edge, -1 at the end

ctypedef struct Arm:
    # an other player's move in its bandit: the four kinds of a card's moves it can choose in
    # the main phase (build, wonder, discard, free) share a cache line (``arm_of``)
    int visits
    int avail
    double total

ctypedef struct SNode:
    int first               # first edge, -1 when none
    int visits              # play-outs through the node (the sum of its edges' visits)


cdef inline int arm_of(const Act* a) noexcept nogil:
    """The index of the move ``a`` among a bandit's arms (``NARMS``): by card (-1: a pass),
    then kind."""
    return (a.card + 1) * 8 + a.kind


cdef enum:
    NLOG = 4096           # log(n) kept for the bandits' counts below this


cdef double LOGN[NLOG]          # LOGN[n] = log(n), the same call's value (LOGN[0] unused)
for _i in range(1, NLOG):
    LOGN[_i] = log(<double>_i)


cdef inline double log_count(int n) noexcept nogil:
    """``log(n)`` of a bandit's count ``n`` >= 1: from the table below ``NLOG``."""
    return LOGN[n] if n < NLOG else log(<double>n)


cdef int isqrt_int(int n) noexcept nogil:
    cdef int r = <int>sqrt(<double>n)
    while r > 0 and r * r > n:
        r -= 1
    while (r + 1) * (r + 1) <= n:
        r += 1
    return r


cdef double denial(const GameS* g, int player, int card, const double* w) noexcept nogil:
    """``bots._denial``: what ``card`` would be worth to the seat the player's hand goes to
    next, built free (the heuristic's value with the weights ``w``)."""
    cdef Act a
    a.kind = K_BUILD
    a.card = card
    a.left = 0
    a.right = 0
    return action_value(g, next_holder(g, player), &a, w)


cdef int cheapest(const Act* pays, int npay, int coins, Act* a) noexcept nogil:
    """``a.left``/``a.right``: the cheapest of the ``npay`` payments ``pays`` within ``coins``
    (the fewest coins, then the fewest to the left: the pick of ``s_candidates_listed`` in a
    group); whether there is one."""
    cdef int j, best = -1, t
    for j in range(npay):
        t = pays[j].left + pays[j].right
        if t <= coins and (best < 0 or t < pays[best].left + pays[best].right or (
                t == pays[best].left + pays[best].right and pays[j].left < pays[best].left)):
            best = j
    if best < 0:
        return 0
    a.left = pays[best].left
    a.right = pays[best].right
    return 1


cdef inline int s_insert(Act* top, double* tv, int m, int width, const Act* a,
                         double v) noexcept nogil:
    """``a`` (value ``v``) into ``top``, the ``width`` best so far, best first, the earlier one
    first among equal values (what taking the first maximum of the rest ``width`` times
    gives); the new count."""
    cdef int w
    if m == width and not v > tv[m - 1]:
        return m
    w = m if m < width else width - 1
    while w > 0 and v > tv[w - 1]:
        top[w] = top[w - 1]
        tv[w] = tv[w - 1]
        w -= 1
    top[w] = a[0]
    tv[w] = v
    return m + 1 if m < width else m


cdef int s_candidates(GameS* g, int player, int width, Act* buf, Act* out,
                      bint distinct, const double* own_w, const double* opp_w) noexcept nogil:
    """The player's cheapest payment per (kind, card), best heuristic value first, ``width`` of
    them written to ``out`` (``bots._cheapest`` ordered by ``action_value``; ties keep the legal
    order); their count, or -1.  ``distinct``: of the wonder stages and of the discards only
    the one whose card is worth most to the next holder of the hand (``denial``) is kept.

    The groups of ``legal()``'s order (a card's builds, its free build, its stage, its discard)
    are made from the hand without listing ``legal()``: each valued once from its cheapest
    payment, a wonder stage's base and a discard's once for every card, and inserted into the
    ``width`` best as they come (:func:`s_candidates_listed`: the same from the list; the
    revive phase goes through it)."""
    cdef City* me = &g.cities[player]
    cdef const City* nb
    cdef const City* lc
    cdef const City* rc
    cdef const HotT* hot
    cdef const StageT* stage
    cdef Act pays[MAXPAY]
    cdef Act a
    cdef Act stage_pay
    cdef double tv[MAXACT]
    cdef int m = 0, i, j, idx, coins = me.coins, dcard = -1, npay, ngroups = 0
    cdef bint free_ok, has_stage = False, ok
    cdef double d, dbest = 0.0, vstage = 0.0, vdiscard, base
    cdef uint64_t seen[2]
    cdef BaseCtx bctx
    if g.phase != PH_MAIN and g.phase != PH_SEVENTH:
        return s_candidates_listed(g, player, width, buf, out, distinct, own_w, opp_w)
    if width <= 0 or g.hlen[player] == 0 or (g.phase == PH_SEVENTH and not me.seventh):
        return 0
    if width > MAXACT:
        width = MAXACT
    nb = &g.before6[0] if g.phase == PH_SEVENTH else &g.cities[0]
    lc = &nb[g.left[player]]
    rc = &nb[g.right[player]]
    if me.stages_built < me.nstages:
        stage = &WONDERS[me.wonder].st[me.side][me.stages_built]
        npay = payments_kept(me, lc, rc, stage.cost, stage.pcost, pays, coins)
        if npay < 0:
            return -1
        has_stage = cheapest(pays, npay, coins, &stage_pay)
        if has_stage:
            stage_pay.kind = K_WONDER
            stage_pay.card = g.hands[player][0]
            vstage = action_value(g, player, &stage_pay, own_w)
    a.kind = K_DISCARD
    a.card = g.hands[player][0]
    a.left = 0
    a.right = 0
    vdiscard = action_value(g, player, &a, own_w)
    seen[0] = 0
    seen[1] = 0
    if distinct:  # the card of the one wonder stage and the one discard kept: the first best
        for i in range(g.hlen[player]):
            idx = g.hands[player][i]
            if not first_seen(seen, idx):
                continue
            d = denial(g, player, idx, opp_w)
            if dcard < 0 or d > dbest:
                dcard = idx
                dbest = d
        ngroups = 1
    else:  # a wonder stage and a discard for every card (its first copy)
        for i in range(g.hlen[player]):
            ngroups += first_seen(seen, g.hands[player][i])
    base_ctx(&bctx, g, player, own_w)
    free_ok = me.free_build and me.free_used_age != g.age and g.phase == PH_MAIN
    seen[0] = 0
    seen[1] = 0
    for i in range(g.hlen[player]):
        idx = g.hands[player][i]
        if not first_seen(seen, idx):
            continue
        hot = &HOT[idx]
        a.card = idx
        if not has_bld(me, hot.building):
            a.kind = K_BUILD
            a.left = 0
            a.right = 0
            npay = unsearched_hot(me, hot, coins)
            ok = npay > 0
            if npay != 0 or free_ok:  # once: the build's and the free build's base
                base = build_base_at(&bctx, idx)
            if npay < 0:
                # paid in resources: worth its base at most (with a positive coin rate); when
                # that cannot enter the ``width`` best (which win ties, being earlier), its
                # payments are not searched.  Nor when ``width`` groups of the hand, earlier or
                # later, are worth more than its base: the wonder stages (``vstage`` each) and
                # the discards (``vdiscard``), ``ngroups`` of each, are known before the walk
                if own_w[W_RATE] > 0 and (
                        (m == width and not base > tv[m - 1])
                        or ((ngroups if has_stage and vstage > base else 0)
                            + (ngroups if vdiscard > base else 0)) >= width):
                    pass
                else:
                    npay = payments_kept(me, lc, rc, CARDS[idx].cost, hot.pcost, pays,
                                         coins)
                    if npay < 0:
                        return -1
                    if cheapest(pays, npay, coins, &a):
                        m = s_insert(out, tv, m, width, &a, value_paid(base, &a, own_w))
                ok = False
            if ok:
                m = s_insert(out, tv, m, width, &a, value_paid(base, &a, own_w))
            if free_ok:
                a.kind = K_FREE
                a.left = 0
                a.right = 0
                m = s_insert(out, tv, m, width, &a, value_paid(base, &a, own_w))
        if has_stage and (not distinct or idx == dcard):
            stage_pay.card = idx
            m = s_insert(out, tv, m, width, &stage_pay, vstage)
        if not distinct or idx == dcard:
            a.kind = K_DISCARD
            a.left = 0
            a.right = 0
            m = s_insert(out, tv, m, width, &a, vdiscard)
    return m


cdef int s_candidates_listed(GameS* g, int player, int width, Act* buf, Act* out,
                             bint distinct, const double* own_w,
                             const double* opp_w) noexcept nogil:
    """:func:`s_candidates` from ``legal()``'s list (every payment searched): the revive
    phase, and the tests' reference."""
    cdef int k = legal(g, player, buf), i, j, n = 0, w, m, dcard
    cdef int keep[MAXACT]
    cdef double val[MAXACT]
    cdef int top[MAXACT]
    cdef int hk[2]
    cdef double hv[2]
    cdef double d
    if k < 0:
        return -1
    # legal() lists the actions of one (kind, card) next to each other (a card's builds, its
    # free build, its wonder stages, its discard; each card once): a group is compared with
    # the last one kept only, and valued once, from its cheapest payment (action_base is the
    # same for every payment of a group: the same floats as action_value per action)
    for i in range(k):
        if n and buf[keep[n - 1]].kind == buf[i].kind and buf[keep[n - 1]].card == buf[i].card:
            j = keep[n - 1]
            if (buf[i].left + buf[i].right < buf[j].left + buf[j].right or (
                    buf[i].left + buf[i].right == buf[j].left + buf[j].right
                    and buf[i].left < buf[j].left)):
                keep[n - 1] = i
        else:
            keep[n] = i
            n += 1
    if distinct:
        hk[0] = -1
        hk[1] = -1
        dcard = -1
        for j in range(n):
            i = buf[keep[j]].kind
            if i == K_WONDER or i == K_DISCARD:
                i = 0 if i == K_WONDER else 1
                if buf[keep[j]].card != dcard:  # a card's stage and discard: valued once
                    dcard = buf[keep[j]].card
                    d = denial(g, player, dcard, opp_w)
                if hk[i] < 0 or d > hv[i]:
                    hk[i] = j
                    hv[i] = d
        m = 0
        for j in range(n):
            i = buf[keep[j]].kind
            if (i != K_WONDER and i != K_DISCARD) or j == hk[0] or j == hk[1]:
                keep[m] = keep[j]
                m += 1
        n = m
    for j in range(n):  # only the groups kept are valued
        val[j] = action_value(g, player, &buf[keep[j]], own_w)
    if width > n:
        width = n
    if width <= 0:
        return 0
    # the ``width`` best, best first, the earlier one first among equal values (what taking the
    # first maximum of the rest ``width`` times gives): an insertion into a list of ``width``
    # kept in that order, most values failing at its last entry
    m = 0
    for j in range(n):
        if m == width and not val[j] > val[top[m - 1]]:
            continue
        w = m if m < width else width - 1
        while w > 0 and val[j] > val[top[w - 1]]:
            top[w] = top[w - 1]
            w -= 1
        top[w] = j
        if m < width:
            m += 1
    for w in range(width):
        out[w] = buf[keep[top[w]]]
    return width


def search_candidates(NativeGame ng, int player, int width, bint distinct=False,
                      own_weights=None, opp_weights=None, bint listed=False):
    """The search's candidates (``IsmctsBot``'s: ``s_candidates``) of ``player``, best first:
    ``(kind, card, left, right)`` each (tests); ``listed``: from ``legal()``'s list
    (``s_candidates_listed``)."""
    cdef Act* buf = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
    cdef Act* cands = <Act*>PyMem_Malloc(sizeof(Act) * MAXACT)
    cdef double own_w[NW]
    cdef double opp_w[NW]
    cdef int k
    try:
        if buf == NULL or cands == NULL:
            raise MemoryError()
        if not 0 <= player < ng.g.n or not 0 <= width <= MAXACT:
            raise ValueError("search_candidates: bad player or width")
        read_weights(own_weights, own_w)
        read_weights(opp_weights, opp_w)
        if listed:
            k = s_candidates_listed(ng.g, player, width, buf, cands, distinct, own_w, opp_w)
        else:
            k = s_candidates(ng.g, player, width, buf, cands, distinct, own_w, opp_w)
        if k < 0:
            raise RuntimeError("sevenw_core: too many legal actions")
        return [(cands[i].kind, cands[i].card, cands[i].left, cands[i].right) for i in range(k)]
    finally:
        PyMem_Free(buf)
        PyMem_Free(cands)


cdef class IsmctsSearch:
    """One decision's search (see ``bots.IsmctsBot``): ``run(rounds)`` adds rounds, ``totals``
    holds the summed reward of every root candidate (``candidates``).

    Args (all from ``bots.IsmctsBot``): the game now; the player; the seats whose hand the
    player has held with the cards each can still hold (``seen``: seat -> cards); the cards the
    other hands can hold (``pool``) and the seats dealt from it (``unseen``, in order); the
    guilds to draw from and how many (0: keep the draw); the search's seed; the candidates per
    decision; the UCB1 constant and the pull towards the heuristic's best; the reward's margin
    scale, the heuristic's noise, the widening below the root, and ``distinct`` (one wonder
    stage and one discard at most among the candidates: ``bots._distinct``).

    ``opp_width`` > 0: the other players' moves *now* (the first step of every play-out) are
    not the heuristic's but each one's own bandit's (decoupled UCT at the root): once per round,
    on that round's deal, each other player to act chooses among its ``opp_width`` best moves
    by the heuristic (``opp_distinct``: with one wonder stage and one discard at most) by UCB1
    with availability counts (``opp_exploration``) plus ``bias / visits`` towards the
    heuristic's best, plays it in every play-out of the round, and is rewarded with its own
    mean reward over them (its margin to the best other seat / margin scale, plus 1 for a win).
    ``opp_depth`` > 1: the same in the first ``opp_depth`` steps of every play-out, the later
    steps' bandits kept per (step from the root, seat), chosen afresh in every play-out and
    rewarded with that play-out's reward of their seat.  ``opp_split``: those later steps'
    bandits kept per root candidate too (the others answer the player's move now).
    """

    cdef GameS* base
    cdef GameS* sim
    cdef Act* buf
    cdef MT rng
    cdef int player, width, nroot, nrounds
    cdef double exploration, bias, margin_scale, noise, opp_noise
    cdef int widen
    cdef bint distinct
    cdef int opp_width              # 0: the others play the heuristic now too
    cdef int opp_depth
    cdef bint opp_split             # the bandits below the first step kept per root candidate
    cdef int cur_root               # the root candidate of the play-out under way
    cdef int pend_arm[MAXP * OPPDEPTHMAX]   # the bandits' moves below the root in this play-out
    cdef int pend_seat[MAXP * OPPDEPTHMAX]
    cdef int npend
    cdef double opp_exploration
    cdef bint opp_distinct
    cdef Arm* arms                  # per set, seat and move (arm_of)
    cdef double own_w[NW]           # the heuristic of the player's own moves
    cdef double opp_w[NW]           # the heuristic the other players are modelled by
    cdef Act root[ROOTMAX]
    cdef double tot[ROOTMAX]
    cdef int root_node[ROOTMAX]
    cdef int nseen
    cdef int seen_seat[MAXP]
    cdef int seen_len[MAXP]
    cdef int seen_cards[MAXP][HANDMAX]
    cdef int pool[POOLMAX]
    cdef int npool
    cdef int unseen[MAXP]
    cdef int nunseen
    cdef int guild_pop[12]
    cdef int nguild_pop
    cdef int guild_k
    cdef SEdge* edges
    cdef int nedges, cap_edges
    cdef SNode* nodes
    cdef int nnodes, cap_nodes
    cdef SM seeded[NSEEDS + 1]      # the round's policy generators (step seeds, finish)
    cdef MT deck                    # the round's future decks' generator, seeded once
    cdef uint64_t seeds[NSEEDS + 2]
    cdef bint ready[NSEEDS + 2]

    def __cinit__(self):
        self.base = <GameS*>malloc(sizeof(GameS))
        self.sim = <GameS*>malloc(sizeof(GameS))
        self.buf = <Act*>malloc(sizeof(Act) * MAXACT)
        self.cap_edges = 1024
        self.cap_nodes = 256
        self.edges = <SEdge*>malloc(sizeof(SEdge) * self.cap_edges)
        self.nodes = <SNode*>malloc(sizeof(SNode) * self.cap_nodes)
        if (self.base == NULL or self.sim == NULL or self.buf == NULL or self.edges == NULL
                or self.nodes == NULL):
            raise MemoryError()

    def __dealloc__(self):
        free(self.base)
        free(self.sim)
        free(self.buf)
        free(self.edges)
        free(self.nodes)
        free(self.arms)

    def __init__(self, NativeGame game, int player, dict seen, list pool, list unseen,
                 list guild_pop, int guild_k, uint64_t seed, int width, double exploration,
                 double bias, double margin_scale=10.0, double noise=1e-3, int widen=8,
                 bint distinct=False, own_weights=None, opp_weights=None, opp_noise=None,
                 int opp_width=0, opp_exploration=None, bint opp_distinct=False,
                 int opp_depth=1, bint opp_split=False):
        cdef int i, k, sets
        memcpy(self.base, game.g, sizeof(GameS))
        if not 0 <= player < self.base.n or not 1 <= width <= ROOTMAX:
            raise ValueError("IsmctsSearch: bad player or width")
        if widen < 1 or noise < 0 or not margin_scale > 0:
            raise ValueError("IsmctsSearch: bad widen, noise or margin scale")
        if len(pool) > POOLMAX or len(guild_pop) > 12 or not 0 <= guild_k <= len(guild_pop):
            raise ValueError("IsmctsSearch: pool or guilds too large")
        self.player = player
        self.width = width
        self.exploration = exploration
        self.bias = bias
        self.margin_scale = margin_scale
        self.noise = noise
        self.widen = widen
        self.distinct = distinct
        self.opp_noise = noise if opp_noise is None else opp_noise
        if self.opp_noise < 0:
            raise ValueError("IsmctsSearch: bad opp_noise")
        if not 0 <= opp_width <= ROOTMAX or not 1 <= opp_depth <= OPPDEPTHMAX:
            raise ValueError("IsmctsSearch: bad opp_width or opp_depth")
        self.opp_width = opp_width
        self.opp_depth = opp_depth
        self.opp_split = opp_split
        self.cur_root = 0
        if opp_width:
            # step 0's bandits, then per root candidate (``opp_split``) the later steps'
            sets = 1 + (width if opp_split else 1) * (opp_depth - 1)
            self.arms = <Arm*>calloc(sets * self.base.n * NARMS, sizeof(Arm))
            if self.arms == NULL:
                raise MemoryError()
        self.opp_exploration = exploration if opp_exploration is None else opp_exploration
        self.opp_distinct = opp_distinct
        read_weights(own_weights, self.own_w)
        read_weights(opp_weights, self.opp_w)
        self.nseen = 0
        for s in sorted(seen):
            cards = seen[s]
            if not 0 <= s < self.base.n or len(cards) > HANDMAX or len(cards) < self.base.hlen[s]:
                raise ValueError("IsmctsSearch: bad seen hand")
            self.seen_seat[self.nseen] = s
            self.seen_len[self.nseen] = len(cards)
            for i, x in enumerate(cards):
                self.seen_cards[self.nseen][i] = x
            self.nseen += 1
        k = 0
        for q in unseen:
            if not 0 <= q < self.base.n:
                raise ValueError("IsmctsSearch: bad unseen seat")
            self.unseen[self.nunseen] = q
            self.nunseen += 1
            k += self.base.hlen[q]
        if k > len(pool):
            raise ValueError("IsmctsSearch: pool smaller than the unseen hands")
        for i, x in enumerate(pool):
            if not 0 <= x < NCARDS:
                raise ValueError("IsmctsSearch: card index out of range")
            self.pool[i] = x
        self.npool = len(pool)
        for i, x in enumerate(guild_pop):
            self.guild_pop[i] = x
        self.nguild_pop = len(guild_pop)
        self.guild_k = guild_k
        mt_seed_u64(&self.rng, seed)
        self.nroot = s_candidates(self.base, player, width, self.buf, self.root, self.distinct,
                                  self.own_w, self.opp_w)
        if self.nroot <= 0:
            raise ValueError("IsmctsSearch: the player has no decision")
        self.nnodes = 0
        self.nedges = 0
        for i in range(self.nroot):
            self.tot[i] = 0.0
            self.root_node[i] = self.new_node()
            if self.root_node[i] < 0:
                raise MemoryError()
        self.nrounds = 0

    @property
    def candidates(self):
        return [(self.root[i].kind, self.root[i].card, self.root[i].left, self.root[i].right)
                for i in range(self.nroot)]

    @property
    def totals(self):
        return [self.tot[i] for i in range(self.nroot)]

    @property
    def rounds(self):
        return self.nrounds

    @property
    def nodes(self):
        """Nodes of the tree (one per root candidate and one per play-out, at most)."""
        return self.nnodes

    def run(self, int rounds):
        """Adds ``rounds`` rounds (each: one re-deal, one play-out per root candidate)."""
        cdef int i, rc = 0
        with nogil:
            for i in range(rounds):
                rc = self.one_round()
                if rc < 0:
                    break
                self.nrounds += 1
        if rc == -2:
            raise MemoryError()
        if rc < 0:
            raise RuntimeError("sevenw_core: ISMCTS play-out failed")

    cdef int new_node(self) noexcept nogil:
        cdef SNode* grown
        if self.nnodes == self.cap_nodes:
            grown = <SNode*>realloc(self.nodes, sizeof(SNode) * self.cap_nodes * 2)
            if grown == NULL:
                return -1
            self.nodes = grown
            self.cap_nodes *= 2
        self.nodes[self.nnodes].first = -1
        self.nodes[self.nnodes].visits = 0
        self.nnodes += 1
        return self.nnodes - 1

    cdef int edge_of(self, int node, const Act* a) noexcept nogil:
        """The node's edge for ``a``'s (kind, card), added when new; -1 when out of memory."""
        cdef int e = self.nodes[node].first, last = -1
        cdef SEdge* grown
        while e >= 0:
            if self.edges[e].kind == a.kind and self.edges[e].card == a.card:
                return e
            last = e
            e = self.edges[e].next
        if self.nedges == self.cap_edges:
            grown = <SEdge*>realloc(self.edges, sizeof(SEdge) * self.cap_edges * 2)
            if grown == NULL:
                return -1
            self.edges = grown
            self.cap_edges *= 2
        e = self.nedges
        self.nedges += 1
        self.edges[e].kind = a.kind
        self.edges[e].card = a.card
        self.edges[e].visits = 0
        self.edges[e].avail = 0
        self.edges[e].total = 0.0
        self.edges[e].child = -1
        self.edges[e].next = -1
        if last < 0:
            self.nodes[node].first = e
        else:
            self.edges[last].next = e
        return e

    cdef int select(self, int node, const Act* cands, int ncand, int* pick, bint* new) noexcept nogil:
        """``IsmctsBot._select``: the index of the action in ``cands`` and its edge."""
        cdef int allowed = 1 + isqrt_int(self.nodes[node].visits // self.widen), j, e, v
        cdef int es[ROOTMAX]
        cdef double u, best = 0.0
        if allowed > ncand:
            allowed = ncand
        pick[0] = -1
        for j in range(allowed):
            e = self.edge_of(node, &cands[j])
            if e < 0:
                return -2
            es[j] = e
            self.edges[e].avail += 1
            if pick[0] < 0 and self.edges[e].visits == 0:
                pick[0] = j
        if pick[0] >= 0:
            new[0] = True
            return es[pick[0]]
        new[0] = False
        for j in range(allowed):
            e = es[j]
            v = self.edges[e].visits
            u = self.edges[e].total / v + self.exploration * sqrt(log_count(self.edges[e].avail) / v)
            if j == 0:
                u += self.bias / v
            if pick[0] < 0 or u > best:
                best = u
                pick[0] = j
        return es[pick[0]]

    cdef int force_others(self, GameS* g, int step, Act* forced, int* seat, int* arm,
                          int n) noexcept nogil:
        """Each other player to act in ``g``: its move by its bandit of step ``step`` from the
        root into ``forced[q]``, its seat and arm noted in ``seat``/``arm`` from index ``n``.
        The statistics are at ``(set * players + q) * NARMS``; the set is the step, or with
        ``opp_split`` below the first step the root candidate's own.  The new count, or -1 on
        an error."""
        cdef Act cands[ROOTMAX]
        cdef int players[MAXP]
        cdef int m, i, q, ncand, pick, at
        m = to_act(g, players)
        for i in range(m):
            q = players[i]
            if q == self.player:
                continue
            ncand = s_candidates(g, q, self.opp_width, self.buf, cands, self.opp_distinct,
                                 self.opp_w, self.opp_w)
            if ncand < 0:
                return -1
            if ncand == 0:
                continue
            at = step
            if self.opp_split and step > 0:
                at = 1 + self.cur_root * (self.opp_depth - 1) + step - 1
            at = (at * self.base.n + q) * NARMS
            pick = self.opp_select(at, cands, ncand)
            forced[q] = cands[pick]
            seat[n] = q
            arm[n] = at + arm_of(&cands[pick])
            n += 1
        return n

    cdef int opp_select(self, int at, const Act* cands, int ncand) noexcept nogil:
        """An other player's move by its bandit (its statistics from ``at``): the index in
        ``cands``."""
        cdef int j, a, v, pick = -1
        cdef double u, best = 0.0
        for j in range(ncand):
            a = at + arm_of(&cands[j])
            self.arms[a].avail += 1
            if pick < 0 and self.arms[a].visits == 0:
                pick = j
        if pick >= 0:
            return pick
        for j in range(ncand):
            a = at + arm_of(&cands[j])
            v = self.arms[a].visits
            u = (self.arms[a].total / v
                 + self.opp_exploration * sqrt(log_count(self.arms[a].avail) / v))
            if j == 0:
                u += self.bias / v
            if pick < 0 or u > best:
                best = u
                pick = j
        return pick

    cdef SM* generator(self, int slot) noexcept nogil:
        """The round's policy generator ``slot`` (< NSEEDS + 1) freshly seeded (then copied)."""
        if not self.ready[slot]:
            sm_seed(&self.seeded[slot], <int64_t>self.seeds[slot])
            self.ready[slot] = True
        return &self.seeded[slot]

    cdef MT* deck_generator(self) noexcept nogil:
        """The round's generator of the future decks (a Mersenne Twister: the game's own),
        seeded once per round."""
        if not self.ready[NSEEDS + 1]:
            mt_seed_u64(&self.deck, self.seeds[NSEEDS + 1])
            # copied into every play-out, which draws a shuffle an age at most: its first
            # generation twisted word by word as drawn, not all 624 words in every copy
            self.deck.fresh = 1
            self.ready[NSEEDS + 1] = True
        return &self.deck

    cdef int one_round(self) noexcept nogil:
        cdef int hands[MAXP][HANDMAX]
        cdef int deal[POOLMAX]
        cdef int gd[12]
        cdef Act cands[ROOTMAX]
        cdef int path[256]
        cdef int path_node[256]
        cdef int i, j, k, q, s, m, ncand, node, npath, depth, e, pick, margin
        cdef bint new, win, tie
        cdef double r
        cdef SM policy
        cdef GameS* sim = self.sim
        cdef Act forced[MAXP]
        cdef int oseat[MAXP]
        cdef int oarm[MAXP]
        cdef double oacc[MAXP]
        cdef int players[MAXP]
        cdef int totals[MAXP]
        cdef int treasury[MAXP]
        cdef double share[MAXP]
        cdef int nopp = 0, nwin, best_other, stepno
        cdef double rq[MAXP]
        cdef int players0[MAXP]
        cdef Act chosen0[MAXP]
        cdef SM policy0
        cdef SM policy1
        cdef int m0 = 0, own0 = -1
        # the re-deal (``IsmctsBot.redeal``)
        for i in range(self.nseen):
            s = self.seen_seat[i]
            mt_sample(&self.rng, self.seen_cards[i], self.seen_len[i], self.base.hlen[s], hands[s])
        for i in range(self.npool):
            deal[i] = self.pool[i]
        mt_shuffle(&self.rng, deal, self.npool)
        k = 0
        for i in range(self.nunseen):
            q = self.unseen[i]
            for m in range(self.base.hlen[q]):
                hands[q][m] = deal[k]
                k += 1
        if self.guild_k:
            mt_sample(&self.rng, self.guild_pop, self.nguild_pop, self.guild_k, gd)
        self.seeds[NSEEDS + 1] = mt_bits64(&self.rng)     # the future decks
        for i in range(NSEEDS):
            self.seeds[i] = mt_bits64(&self.rng)
        self.seeds[NSEEDS] = mt_bits64(&self.rng)         # the play-out's policy
        for i in range(NSEEDS + 2):
            self.ready[i] = False
        for q in range(MAXP):
            forced[q].kind = -1
        if self.opp_width > 0:
            # the other players' moves now, each by its own bandit on this deal
            self.deal_into(sim, hands, gd)
            nopp = self.force_others(sim, 0, forced, oseat, oarm, 0)
            if nopp < 0:
                return -1
            for i in range(nopp):
                oacc[i] = 0.0
        for i in range(self.nroot):
            self.deal_into(sim, hands, gd)
            self.cur_root = i
            self.npend = 0
            stepno = 0
            if i == 0 and not nopp and sim.phase != PH_OVER:
                # the first step's other moves (the heuristic's, the policy's first draws) are
                # the same for every root candidate: made once (as others_first for mcts)
                m0 = to_act(sim, players0)
                own0 = -1
                policy0 = self.generator(0)[0]
                for j in range(m0):
                    if players0[j] == self.player:
                        own0 = j
                    elif heuristic_act_noisy(sim, players0[j], &policy0, self.buf, &chosen0[j],
                                             self.opp_noise, self.opp_w) < 0:
                        return -1
            if own0 >= 0:
                # heuristic_step with those moves, then advance's loop with the policy after them
                chosen0[own0] = self.root[i]
                step(sim, players0, chosen0, m0)
                if sim.err:
                    return -1
                stepno = 1
                policy1 = policy0
                while sim.phase != PH_OVER and not acting(sim, self.player):
                    if self.sstep(sim, self.player, NULL, &policy1, &stepno, NULL) < 0:
                        return -1
            elif self.advance(sim, &self.root[i], self.generator(0), &stepno,
                              &forced[0] if nopp else NULL) < 0:
                return -1
            ncand = 0
            if sim.phase != PH_OVER:
                ncand = s_candidates(sim, self.player, self.width, self.buf, cands, self.distinct,
                                     self.own_w, self.opp_w)
                if ncand < 0:
                    return -1
            node = self.root_node[i]
            npath = 0
            depth = 1
            while ncand > 0 and npath < 256:
                e = self.select(node, cands, ncand, &pick, &new)
                if e < 0:
                    return -2
                path[npath] = e
                path_node[npath] = node
                npath += 1
                if self.advance(sim, &cands[pick], self.generator(depth % NSEEDS), &stepno,
                                NULL) < 0:
                    return -1
                depth += 1
                ncand = 0
                if sim.phase != PH_OVER:
                    ncand = s_candidates(sim, self.player, self.width, self.buf, cands, self.distinct,
                                     self.own_w, self.opp_w)
                    if ncand < 0:
                        return -1
                if new:
                    j = self.new_node()
                    if j < 0:
                        return -2
                    self.edges[e].child = j
                    break
                node = self.edges[e].child
            # play-out: the heuristic for everybody to the end
            policy = self.generator(NSEEDS)[0]
            while sim.phase != PH_OVER:
                if self.sstep(sim, -1, NULL, &policy, &stepno, NULL) < 0:
                    return -1
            margin = end_margin(sim, self.player, &win, &tie)
            r = margin / self.margin_scale + (1.0 if win else 0.5 if tie else 0.0)
            self.tot[i] += r
            for j in range(npath):
                self.edges[path[j]].visits += 1
                self.edges[path[j]].total += r
                self.nodes[path_node[j]].visits += 1
            if nopp or self.npend:
                nwin = tally_end(sim, totals, treasury, share)
                for q in range(sim.n):
                    best_other = -1000000
                    for s in range(sim.n):
                        if s != q and totals[s] > best_other:
                            best_other = totals[s]
                    rq[q] = ((totals[q] - best_other) / self.margin_scale
                             + (0.0 if share[q] <= 0 else 1.0 if nwin == 1 else 0.5))
                for j in range(nopp):
                    oacc[j] += rq[oseat[j]]
                for j in range(self.npend):
                    self.arms[self.pend_arm[j]].visits += 1
                    self.arms[self.pend_arm[j]].total += rq[self.pend_seat[j]]
        for j in range(nopp):
            self.arms[oarm[j]].visits += 1
            self.arms[oarm[j]].total += oacc[j] / self.nroot
        return 0

    cdef int advance(self, GameS* g, const Act* mine, const SM* seeded, int* stepno,
                     const Act* forced0) noexcept nogil:
        """In place: the player plays ``mine`` (NULL when not to act) and the others the
        heuristic (policy: a copy of ``seeded``); then the heuristic plays on while the player
        has no decision.  ``stepno``: the steps from the root, counted on; the other players'
        moves in the first step are ``forced0`` (NULL: the heuristic's), in the next
        ``opp_depth - 1`` steps their bandits' (``opp_width`` > 0).  0, or -1 on an error."""
        cdef SM policy
        cdef int rc = 0
        policy = seeded[0]
        if g.phase != PH_OVER and (mine != NULL or not acting(g, self.player)):
            rc = self.sstep(g, self.player, mine, &policy, stepno, forced0)
        while rc == 0 and g.phase != PH_OVER and not acting(g, self.player):
            rc = self.sstep(g, self.player, NULL, &policy, stepno, forced0)
        return rc

    cdef int sstep(self, GameS* g, int player, const Act* mine, SM* policy, int* stepno,
                   const Act* forced0) noexcept nogil:
        """``heuristic_step`` as step ``stepno`` from the root (counted on)."""
        cdef Act forced[MAXP]
        cdef const Act* f = NULL
        cdef int q, n
        if stepno[0] == 0:
            f = forced0
        elif self.opp_width > 0 and stepno[0] < self.opp_depth:
            for q in range(MAXP):
                forced[q].kind = -1
            n = self.force_others(g, stepno[0], forced, self.pend_seat, self.pend_arm, self.npend)
            if n < 0:
                return -1
            if n > self.npend:
                f = forced
            self.npend = n
        stepno[0] += 1
        return heuristic_step(g, player, mine, policy, self.buf, self.noise, self.player,
                              self.own_w, self.opp_w, self.opp_noise, f)

    cdef void deal_into(self, GameS* sim, int (*hands)[HANDMAX], const int* gd) noexcept nogil:
        """``sim``: the game now with the round's deal (hands, guild draw, future decks)."""
        cdef int j, m, s
        copy_play(sim, self.base, False)  # the generator: the round's deck generator below
        sim.gen = GEN_MT
        for j in range(self.nseen):
            s = self.seen_seat[j]
            for m in range(sim.hlen[s]):
                sim.hands[s][m] = hands[s][m]
        for j in range(self.nunseen):
            s = self.unseen[j]
            for m in range(sim.hlen[s]):
                sim.hands[s][m] = hands[s][m]
        for j in range(self.guild_k):
            sim.guild_draw[j] = gd[j]
        if sim.age < 3:  # the future decks (none in the third age: neither seeded nor copied)
            memcpy(&sim.rng, self.deck_generator(), sizeof(MT))
