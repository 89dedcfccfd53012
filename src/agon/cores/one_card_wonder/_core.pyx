# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
# stays whole: one compiled module whose cdef functions inline into each other; split into
# several extension modules, the hot loop would call across them through function pointers.
"""The compiled core of agon's One Card Wonder engine.

A line-by-line port of ``agon.games.one_card_wonder.engine`` (the readable reference) to C
structs and arrays: the same stack of frames, the same order of legal actions, the same
Mersenne Twister as Python's ``random.Random`` (seeding by ``init_by_array``, ``_randbelow``
by rejection on ``getrandbits``, ``shuffle`` and ``choice``), so one seed plays the same game
in both.  The content (wonders, boards, buildings, leaders, rules) is not built in: the agon
side compiles the loaded TOML content into plain tables (:class:`Core`); effects are looked up
by their registry name in ``EFFECTS`` (an effect name unknown here means the content is not
supported and the caller stays on the Python engine).

The hot loop (legal actions, random choice, apply) touches no Python object.
"""

from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

cdef enum:
    MAXP = 6
    MAXSLOT = 2
    MAXWON = 64
    MAXSTAGE = 16
    MAXWB = 8
    MAXBOARD = 64
    MAXBLD = 256
    MAXLEAD = 64
    MAXPLACED = 32
    MAXSTACK = 128
    MAXACT = 2048
    MAXPAID = 32
    MT_N = 624
    MT_M = 397

# frame kinds: the automatic ones first (run by the engine), then the decisions
cdef enum:
    F_SETUP_DONE = 0
    F_TURN_START
    F_TURN_END
    F_NEXT
    F_OPEN_WINDOW
    F_RESOLVE
    F_TRIBUTE_START
    F_OUTCOME
    F_COUNTER
    F_WONDER
    F_BOARD
    F_TURN
    F_SAPPHO
    F_RETURN
    F_SUPPLY
    F_SELL
    F_DISCARD
    F_TAKE
    F_KIND
    F_BUILD
    F_PAY
    F_ASK
    F_RESPOND
    F_TRIBUTE
    F_RAMSES
    F_PLACE
    F_TRADE
    F_ANSWER

FRAME_NAMES = (
    "setup_done", "turn_start", "turn_end", "next", "open_window", "resolve", "tribute_start",
    "outcome", "counter", "wonder", "board", "turn", "sappho", "return", "supply", "sell",
    "discard", "take", "kind", "build", "pay", "ask", "respond", "tribute", "ramses", "place",
    "trade", "answer",
)

# action verbs
cdef enum:
    V_WONDER = 0
    V_BOARD
    V_PRODUCE
    V_SUBSIDY
    V_BUILD
    V_SELL
    V_NEW
    V_LEADER
    V_RETURN
    V_SUPPLY
    V_STAGE
    V_BUILDING
    V_DONE
    V_PAY
    V_TAKE
    V_DISCARD
    V_REVEAL
    V_PASS
    V_TRIBUTE
    V_STOP
    V_DESTROY
    V_PLACE
    V_KIND
    V_SELLR
    V_OFFER                 # x partner, y item given + 1, z item asked + 1 (0: nothing)
    V_ACCEPT
    V_DECLINE

# effect triggers (agon.games.one_card_wonder.effects.TRIGGERS)
TRIGGERS = ("immediate", "production", "subsidy", "build", "sale", "new_action", "turn", "leader")
cdef enum:
    T_IMMEDIATE = 0
    T_PRODUCTION
    T_SUBSIDY
    T_BUILD
    T_SALE
    T_NEW_ACTION
    T_TURN
    T_LEADER

#: the registry names this core implements, in opcode order
EFFECTS = (
    "subsidy_extra_from_bag", "subsidy_coin", "sale_pair_bonus", "build_discount",
    "production_keep_all_if_distinct", "production_draw_extra", "production_bonus",
    "immediate_take_supply", "immediate_take_bag", "immediate_coins", "oasis",
    "turn_coin_if_none", "new_action_take_bag", "new_action_take_supply",
    "leader_cartimandua", "leader_sappho", "leader_alexander", "leader_archimedes",
    "leader_ramses", "leader_take_bag", "leader_free_subsidy", "leader_from_each_opponent",
    "leader_free_stage", "leader_coins_and_supply",
)
cdef enum:
    OP_SUBSIDY_EXTRA = 0
    OP_SUBSIDY_COIN
    OP_SALE_PAIR
    OP_BUILD_DISCOUNT
    OP_KEEP_ALL
    OP_DRAW_EXTRA
    OP_PROD_BONUS
    OP_IMM_SUPPLY
    OP_IMM_BAG
    OP_IMM_COINS
    OP_OASIS
    OP_TURN_COIN
    OP_NEW_BAG
    OP_NEW_SUPPLY
    OP_L_CARTIMANDUA
    OP_L_SAPPHO
    OP_L_ALEXANDER
    OP_L_ARCHIMEDES
    OP_L_RAMSES
    OP_L_TAKE_BAG
    OP_L_FREE_SUBSIDY
    OP_L_EACH_OPPONENT
    OP_L_FREE_STAGE
    OP_L_COINS_SUPPLY

cdef enum:
    SRC_BAG = -1
    SRC_SUPPLY = -2

RESOURCES = ("knowledge", "wood", "clay", "stone", "iron")
ITEMS = ("knowledge", "wood", "clay", "stone", "iron", "coin")

# ---------------------------------------------------------------- Mersenne Twister (CPython's)

ctypedef struct MT:
    uint32_t s[MT_N]
    int i


cdef void mt_seed(MT* m, const uint32_t* key, int klen) noexcept nogil:
    """CPython ``random_seed``: ``init_by_array`` with the 32-bit words of abs(seed)."""
    cdef uint32_t* mt = m.s
    cdef int i, j, k
    cdef uint32_t a = 1812433253, b = 1664525, c = 1566083941
    mt[0] = 19650218
    for i in range(1, MT_N):
        mt[i] = a * (mt[i - 1] ^ (mt[i - 1] >> 30)) + <uint32_t>i
    i = 1
    j = 0
    k = MT_N if MT_N > klen else klen
    while k > 0:
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * b)) + key[j] + <uint32_t>j
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= klen:
            j = 0
        k -= 1
    k = MT_N - 1
    while k > 0:
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * c)) - <uint32_t>i
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        k -= 1
    mt[0] = 0x80000000
    m.i = MT_N


cdef void mt_seed_u64(MT* m, uint64_t seed) noexcept nogil:
    cdef uint32_t key[2]
    key[0] = <uint32_t>seed
    key[1] = <uint32_t>(seed >> 32)
    mt_seed(m, key, 2 if key[1] else 1)


cdef void mt_twist(MT* m) noexcept nogil:
    """The next 624 words (an equivalent state: index N untwisted = index 0 twisted)."""
    cdef uint32_t y
    cdef uint32_t* mt = m.s
    cdef int kk
    cdef uint32_t upper = 0x80000000, lower = 0x7fffffff, matrix = 0x9908b0df
    for kk in range(MT_N - MT_M):
        y = (mt[kk] & upper) | (mt[kk + 1] & lower)
        mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ (matrix if y & 1 else 0)
    for kk in range(MT_N - MT_M, MT_N - 1):
        y = (mt[kk] & upper) | (mt[kk + 1] & lower)
        mt[kk] = mt[kk + MT_M - MT_N] ^ (y >> 1) ^ (matrix if y & 1 else 0)
    y = (mt[MT_N - 1] & upper) | (mt[0] & lower)
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (matrix if y & 1 else 0)
    m.i = 0


cdef inline uint32_t mt_next(MT* m) noexcept nogil:
    cdef uint32_t y
    if m.i >= MT_N:
        mt_twist(m)
    y = m.s[m.i]
    m.i += 1
    y ^= (y >> 11)
    y ^= (y << 7) & <uint32_t>0x9d2c5680
    y ^= (y << 15) & <uint32_t>0xefc60000
    y ^= (y >> 18)
    return y


cdef inline int randbelow(MT* m, int n) noexcept nogil:
    """``random.Random._randbelow_with_getrandbits(n)`` for 0 < n < 2**31."""
    cdef int k = 0, t = n
    cdef uint32_t r
    while t:
        k += 1
        t >>= 1
    r = mt_next(m) >> (32 - k)
    while r >= <uint32_t>n:
        r = mt_next(m) >> (32 - k)
    return <int>r


cdef void mt_seed_py(MT* m, object seed) except *:
    """Seed like ``random.Random(seed)`` for a Python int of any size."""
    cdef uint32_t key[64]
    cdef int n = 0
    v = abs(int(seed))
    if v == 0:
        key[0] = 0
        n = 1
    while v:
        if n >= 64:
            raise ValueError("seed too large")
        key[n] = <uint32_t>(v & 0xFFFFFFFF)
        v >>= 32
        n += 1
    mt_seed(m, key, n)


def _mt_check(seed, int n, int count):
    """``[random.Random(seed)._randbelow(n) for _ in range(count)]`` (for the parity tests)."""
    cdef MT m
    mt_seed_py(&m, seed)
    return [randbelow(&m, n) for _ in range(count)]


# ---------------------------------------------------------------- content tables

ctypedef struct Eff:
    int op
    int trig
    int res        # -1: none
    int amount
    int coins
    int bag
    int neigh
    int take

ctypedef struct Bld:
    int res[5]
    int joker
    int coin
    Eff eff
    int after      # building index or -1
    int shares
    int wonder     # index of the wonder card it is printed on, or -1 (board)

ctypedef struct Won:
    int nst
    int res[MAXSTAGE][5]
    int joker[MAXSTAGE]
    int coin[MAXSTAGE]
    int prereq[MAXSTAGE]
    int total[MAXSTAGE]    # cost units of each stage
    int sum                # cost units of the whole wonder
    int rank               # place of the id in sorted order (the heuristic's tie-break)
    int nb
    int bld[MAXWB]

ctypedef struct Lead:
    Eff eff
    int res[5]
    int joker
    int coin
    int globe

ctypedef struct Tables:
    int storage
    int tokens
    int coins
    int bagn[8]    # per player count, -1: not allowed
    int nwon
    int nboard
    int nbld
    int nlead
    Won w[MAXWON]
    int board_bld[MAXBOARD][4]
    Bld b[MAXBLD]
    Lead l[MAXLEAD]

# ---------------------------------------------------------------- game state

ctypedef struct Frame:
    int kind
    int seat
    int a
    int b
    int c
    int d
    int e
    signed char v[8]
    signed char w[8]
    int npaid
    short paid[MAXPAID]    # who * 16 + item * 2 + from_supply

ctypedef struct Act:
    unsigned char verb
    unsigned char x
    unsigned char y
    unsigned char z
    uint32_t dmask         # bit k: the player's k-th placed building is a discount used

ctypedef struct Player:
    int store[6]
    int nw
    int wonder[MAXSLOT]
    int built[MAXSLOT]
    int rebuild[MAXSLOT]
    int board
    int board_opt[2]
    int nplaced
    int placed[MAXPLACED]  # buildings with a lasting effect, in the order built (by_trigger)
    int trig_mask          # triggers present among them
    uint32_t used          # once-per-turn discounts used (bits of ``placed``)
    int tokens
    int leader
    int leader_state
    int got_coin
    int zeus
    int active
    int archimedes
    unsigned char has[MAXBLD]

ctypedef struct GameS:
    const Tables* t
    int n
    int two_card
    int leaders
    int trade
    int max_turns
    int bag[5]
    int supply[5]
    int coins
    int current
    int turn
    int winner
    int first_done
    int err
    int ndisp
    int disp_w[MAXP + 1]
    int disp_r[MAXP + 1][2]
    int disp_taken[MAXP + 1]
    Player pl[MAXP]
    int sp
    Frame stack[MAXSTACK]
    int nacts
    Act acts[MAXACT]
    MT rng


cdef inline Frame* push(GameS* g, int kind, int seat) noexcept nogil:
    cdef Frame* f
    if g.sp >= MAXSTACK:
        g.err = 1
        g.sp = MAXSTACK - 1
    f = &g.stack[g.sp]
    g.sp += 1
    f.kind = kind
    f.seat = seat
    f.a = 0
    f.b = 0
    f.c = 0
    f.d = 0
    f.e = 0
    f.npaid = 0
    return f


cdef inline void add_act(GameS* g, int verb, int x, int y, int z, uint32_t dmask) noexcept nogil:
    cdef Act* a
    if g.nacts >= MAXACT:
        g.err = 2
        return
    a = &g.acts[g.nacts]
    g.nacts += 1
    a.verb = verb
    a.x = x
    a.y = y
    a.z = z
    a.dmask = dmask


cdef inline int held(Player* p) noexcept nogil:
    return p.store[0] + p.store[1] + p.store[2] + p.store[3] + p.store[4] + p.store[5]


cdef inline void end_game(GameS* g, int winner) noexcept nogil:
    g.winner = winner
    g.sp = 0


cdef inline void overflow(GameS* g, int seat) noexcept nogil:
    cdef Frame* top
    if held(&g.pl[seat]) > g.t.storage:
        if g.sp > 0:
            top = &g.stack[g.sp - 1]
            if top.kind == F_DISCARD and top.seat == seat:
                return
        push(g, F_DISCARD, seat)


cdef inline void gain_coins(GameS* g, int seat, int amount) noexcept nogil:
    cdef int k = amount if amount < g.coins else g.coins
    if k > 0:
        g.coins -= k
        g.pl[seat].store[5] += k
        g.pl[seat].got_coin = 1
        overflow(g, seat)


cdef inline void take_from_bag(GameS* g, int seat, int kind, int amount) noexcept nogil:
    cdef int k = amount if amount < g.bag[kind] else g.bag[kind]
    if k > 0:
        g.bag[kind] -= k
        g.pl[seat].store[kind] += k
        overflow(g, seat)


cdef inline void push_take(GameS* g, int seat, int source, int amount) noexcept nogil:
    cdef Frame* f
    if amount > 0:
        f = push(g, F_TAKE, seat)
        f.a = source
        f.b = amount


cdef inline int draw(GameS* g) noexcept nogil:
    cdef int total = g.bag[0] + g.bag[1] + g.bag[2] + g.bag[3] + g.bag[4]
    cdef int x, r
    if total == 0:
        return -1
    x = randbelow(&g.rng, total)
    for r in range(5):
        x -= g.bag[r]
        if x < 0:
            g.bag[r] -= 1
            return r
    return -1


cdef inline bint locked(GameS* g, Player* p, int slot) noexcept nogil:
    return g.two_card and not g.first_done and p.active != -1 and p.active != slot


cdef inline bint stage_open(GameS* g, Player* p, int slot, int i) noexcept nogil:
    cdef int built = p.built[slot]
    cdef int req = g.t.w[p.wonder[slot]].prereq[i]
    cdef int rb
    if built >> i & 1:
        return False
    if built & req != req:
        return False
    rb = p.rebuild[slot]
    return rb == -1 or rb == i


cdef inline int wonder_slot(Player* p, int wonder) noexcept nogil:
    cdef int k
    for k in range(p.nw):
        if p.wonder[k] == wonder:
            return k
    return -1


cdef inline int completed(GameS* g, int seat) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int k, out = 0
    for k in range(p.nw):
        if p.built[k] == (1 << g.t.w[p.wonder[k]].nst) - 1:
            out += 1
    return out


cdef void add_wonder(GameS* g, Player* p, int w) noexcept nogil:
    cdef int slot = p.nw
    p.wonder[slot] = w
    p.built[slot] = 0
    p.rebuild[slot] = -1
    p.nw += 1


cdef void complete_stage(GameS* g, int seat, int slot, int i) noexcept nogil:
    """Place a stage marker; the first to complete every stage wins at once (SPIELENDE)."""
    cdef Player* p = &g.pl[seat]
    p.built[slot] |= 1 << i
    if p.rebuild[slot] == i:
        p.rebuild[slot] = -1
    if p.active == -1:
        p.active = slot
    if p.built[slot] == (1 << g.t.w[p.wonder[slot]].nst) - 1:
        if not g.two_card or completed(g, seat) >= 2:
            end_game(g, seat)
        else:
            g.first_done = 1


cdef void place_building(GameS* g, int seat, int bi) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef const Bld* b = &g.t.b[bi]
    cdef int slot
    p.has[bi] = 1
    if not b.shares:
        p.tokens += 1
    if b.eff.trig != T_IMMEDIATE:
        if p.nplaced >= MAXPLACED:
            g.err = 3
            return
        p.placed[p.nplaced] = bi
        p.nplaced += 1
        p.trig_mask |= 1 << b.eff.trig
    if b.wonder >= 0:
        slot = wonder_slot(p, b.wonder)
        if slot >= 0 and p.active == -1:
            p.active = slot
    if b.eff.trig == T_IMMEDIATE:
        call_effect(g, seat, &b.eff, 0)


cdef void start_alexander(GameS* g, int seat) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int slot, count, x
    cdef Frame* f
    for slot in range(p.nw - 1, -1, -1):
        count = 0
        x = p.built[slot]
        while x:
            count += x & 1
            x >>= 1
        p.built[slot] = 0
        if count:
            f = push(g, F_PLACE, seat)
            f.a = slot
            f.b = count


cdef void archimedes(GameS* g, int seat) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int k, bi
    p.archimedes = 1
    for k in range(4):
        bi = g.t.board_bld[p.board][k]
        if not p.has[bi]:
            place_building(g, seat, bi)


cdef void call_effect(GameS* g, int seat, const Eff* e, int ctx) noexcept nogil:
    cdef int op = e.op
    cdef int n = g.n
    cdef int k
    cdef Frame* f
    if op == OP_SUBSIDY_EXTRA:
        take_from_bag(g, seat, ctx, e.amount)
    elif op == OP_SUBSIDY_COIN or op == OP_IMM_COINS or op == OP_L_CARTIMANDUA:
        gain_coins(g, seat, e.amount)
    elif op == OP_SALE_PAIR:
        if ctx == e.res:
            gain_coins(g, seat, e.coins)
    elif op == OP_PROD_BONUS or op == OP_NEW_BAG:
        take_from_bag(g, seat, e.res, e.amount)
    elif op == OP_IMM_SUPPLY or op == OP_NEW_SUPPLY:
        push_take(g, seat, SRC_SUPPLY, e.amount)
    elif op == OP_IMM_BAG:
        if e.res < 0:
            push_take(g, seat, SRC_BAG, e.amount)
        else:
            take_from_bag(g, seat, e.res, e.amount)
    elif op == OP_OASIS:
        push_take(g, seat, (seat - 1 + n) % n, e.neigh)
        push_take(g, seat, (seat + 1) % n, e.neigh)
        push_take(g, seat, SRC_BAG, e.bag)
    elif op == OP_L_SAPPHO:
        push(g, F_SAPPHO, seat)
    elif op == OP_L_ALEXANDER:
        start_alexander(g, seat)
    elif op == OP_L_ARCHIMEDES:
        archimedes(g, seat)
    elif op == OP_L_RAMSES:
        push(g, F_RAMSES, seat)
    elif op == OP_L_TAKE_BAG:
        push_take(g, seat, SRC_BAG, e.amount)
    elif op == OP_L_FREE_SUBSIDY:
        push(g, F_KIND, seat)
    elif op == OP_L_EACH_OPPONENT:
        for k in range(n - 1, 0, -1):
            push_take(g, seat, (seat + k) % n, e.amount)
    elif op == OP_L_FREE_STAGE:
        f = push(g, F_PLACE, seat)
        f.a = -1
        f.b = 1
    elif op == OP_L_COINS_SUPPLY:
        push_take(g, seat, SRC_SUPPLY, e.take)
        gain_coins(g, seat, e.coins)
    # build_discount, production_keep_all_if_distinct, production_draw_extra,
    # turn_coin_if_none: read by the engine, no handler


# ---------------------------------------------------------------- AKTION 1-4

cdef void prod_gain(GameS* g, int seat, const signed char* kept) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int r, k
    for r in range(5):
        p.store[r] += kept[r]
    if p.trig_mask & (1 << T_PRODUCTION):
        for k in range(p.nplaced):
            if g.t.b[p.placed[k]].eff.trig == T_PRODUCTION:
                call_effect(g, seat, &g.t.b[p.placed[k]].eff, 0)
    overflow(g, seat)


cdef void prod_keep(GameS* g, int seat, const signed char* drawn) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int nd = drawn[0] + drawn[1] + drawn[2] + drawn[3] + drawn[4]
    cdef int r, k, distinct = 0
    cdef bint keep_all = False
    cdef Frame* f
    if nd > 3:
        f = push(g, F_RETURN, seat)
        memcpy(f.v, drawn, 5)
        return
    if nd == 3:
        for r in range(5):
            if drawn[r]:
                distinct += 1
        if distinct == 3 and p.trig_mask & (1 << T_PRODUCTION):
            for k in range(p.nplaced):
                if g.t.b[p.placed[k]].eff.op == OP_KEEP_ALL:
                    keep_all = True
        if not keep_all:
            f = push(g, F_SUPPLY, seat)
            memcpy(f.v, drawn, 5)
            return
    prod_gain(g, seat, drawn)


cdef void production(GameS* g, int seat) noexcept nogil:
    """Draw 3, keep 2, 1 to the supply board; the Oracle draws more first (FAQ I)."""
    cdef Player* p = &g.pl[seat]
    cdef int extra = 0, k, r
    cdef signed char drawn[8]
    memset(drawn, 0, 8)
    for k in range(p.nplaced):
        if g.t.b[p.placed[k]].eff.op == OP_DRAW_EXTRA:
            extra += g.t.b[p.placed[k]].eff.amount
    for k in range(3 + extra):
        r = draw(g)
        if r < 0:
            break
        drawn[r] += 1
    prod_keep(g, seat, drawn)


cdef void subsidy(GameS* g, int seat, int r) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int k = g.supply[r]
    cdef int j
    g.supply[r] = 0
    p.store[r] += k
    if k >= 1 and p.trig_mask & (1 << T_SUBSIDY):
        for j in range(p.nplaced):
            if g.t.b[p.placed[j]].eff.trig == T_SUBSIDY:
                call_effect(g, seat, &g.t.b[p.placed[j]].eff, r)
    overflow(g, seat)


cdef void start_regular(GameS* g, int seat, const Act* a) noexcept nogil:
    cdef int v = a.verb
    if v == V_PRODUCE:
        production(g, seat)
    elif v == V_SUBSIDY:
        subsidy(g, seat, a.x)
    elif v == V_BUILD:
        push(g, F_BUILD, seat)
    elif v == V_SELL:
        push(g, F_SELL, seat)


# ---------------------------------------------------------------- build (AKTION 3)

cdef inline bint payable(Player* p, int coin, int joker, const int* need) noexcept nogil:
    """A coin cost only with coins (MÜNZEN); coins stand in for missing resources; jokers."""
    cdef int short = 0, spare = 0, r, d, c
    if p.store[5] < coin:
        return False
    for r in range(5):
        d = p.store[r] - need[r]
        if d < 0:
            short -= d
        else:
            spare += d
    c = p.store[5] - coin - short
    return c >= 0 and spare + c >= joker


cdef inline bint feasible(const int* store, const int* need, int joker) noexcept nogil:
    cdef int short = 0, spare = 0, r, d, c
    for r in range(5):
        d = store[r] - need[r]
        if d < 0:
            short -= d
        else:
            spare += d
    c = store[5] - short
    return c >= 0 and spare + c >= joker


cdef int discounts(GameS* g, Player* p, const int* cost_res, int* pos) noexcept nogil:
    """Positions (in ``placed``) of the unused discounts that apply to this cost."""
    cdef int m = 0, k
    cdef const Eff* e
    for k in range(p.nplaced):
        e = &g.t.b[p.placed[k]].eff
        if e.op == OP_BUILD_DISCOUNT and not (p.used >> k & 1) and cost_res[e.res] > 0:
            pos[m] = k
            m += 1
    return m


cdef bint offer(GameS* g, Player* p, const int* res, int joker, int coin, int verb, int x,
                int y, bint stop_first) noexcept nogil:
    """Append ``verb x y`` once per payable subset of the discounts, in the order of
    ``itertools.combinations`` by size; True when ``stop_first`` and one was found."""
    cdef int pos[MAXPLACED]
    cdef int cmb[MAXPLACED]
    cdef int need[5]
    cdef int m, k, i, j, r
    cdef uint32_t dmask
    cdef const Eff* e
    m = discounts(g, p, res, pos) if p.trig_mask & (1 << T_BUILD) else 0
    for k in range(m + 1):
        for i in range(k):
            cmb[i] = i
        while True:
            for r in range(5):
                need[r] = res[r]
            dmask = 0
            for i in range(k):
                e = &g.t.b[p.placed[pos[cmb[i]]]].eff
                need[e.res] -= e.amount
                if need[e.res] < 0:
                    need[e.res] = 0
                dmask |= (<uint32_t>1) << pos[cmb[i]]
            if payable(p, coin, joker, need):
                add_act(g, verb, x, y, 0, dmask)
                if stop_first:
                    return True
            i = k - 1
            while i >= 0 and cmb[i] == m - k + i:
                i -= 1
            if i < 0:
                break
            cmb[i] += 1
            for j in range(i + 1, k):
                cmb[j] = cmb[j - 1] + 1
    return False


cdef inline bint can_building(GameS* g, Player* p, int bi) noexcept nogil:
    cdef const Bld* b = &g.t.b[bi]
    if p.has[bi]:
        return False
    if b.after >= 0 and not p.has[b.after]:
        return False
    if b.shares:
        return True
    if p.tokens < g.t.tokens:
        return True
    return p.archimedes and b.wonder >= 0 and wonder_slot(p, b.wonder) >= 0


cdef bint build_options(GameS* g, int seat, int phase, bint stop_first) noexcept nogil:
    """Phases: 0 nothing yet, 1 stages, 2 building first, 3 building after stages,
    4 stages after a building (BAU: a building before or after the stages, not between)."""
    cdef Player* p = &g.pl[seat]
    cdef const Won* w
    cdef const Bld* b
    cdef int slot, i, k, built, req, rb
    if phase != 3:
        for slot in range(p.nw):
            if locked(g, p, slot):
                continue
            w = &g.t.w[p.wonder[slot]]
            built = p.built[slot]
            rb = p.rebuild[slot]
            for i in range(w.nst):
                req = w.prereq[i]
                if built >> i & 1 or built & req != req or (rb != -1 and rb != i):
                    continue
                if p.store[5] < w.coin[i]:
                    continue
                if offer(g, p, w.res[i], w.joker[i], w.coin[i], V_STAGE, slot, i, stop_first):
                    return True
    if phase <= 1:
        if p.board >= 0:
            for k in range(4):
                i = g.t.board_bld[p.board][k]
                if can_building(g, p, i):
                    b = &g.t.b[i]
                    if offer(g, p, b.res, b.joker, b.coin, V_BUILDING, i, 0, stop_first):
                        return True
        for slot in range(p.nw):
            if locked(g, p, slot):
                continue
            w = &g.t.w[p.wonder[slot]]
            for k in range(w.nb):
                i = w.bld[k]
                if can_building(g, p, i):
                    b = &g.t.b[i]
                    if offer(g, p, b.res, b.joker, b.coin, V_BUILDING, i, 0, stop_first):
                        return True
    if phase > 0:
        add_act(g, V_DONE, 0, 0, 0, 0)
    return False


cdef int pay_items(GameS* g, const Frame* f, int* items) noexcept nogil:
    """Canonical payment: specific resources first (resource before coin), then jokers in
    non-decreasing item order; only steps that keep the rest payable."""
    cdef int* store = g.pl[f.seat].store
    cdef int need[5]
    cdef int r, q, n = 0
    for r in range(5):
        if f.v[r]:
            for q in range(5):
                need[q] = f.v[q]
            need[r] -= 1
            if store[r] > 0:
                store[r] -= 1
                if feasible(store, need, f.d):
                    items[n] = r
                    n += 1
                store[r] += 1
            if store[5] > 0:
                store[5] -= 1
                if feasible(store, need, f.d):
                    items[n] = 5
                    n += 1
                store[5] += 1
            return n
    if f.d:
        for q in range(f.e, 6):
            if store[q] > 0:
                items[n] = q
                n += 1
    return n


cdef void pay_item(GameS* g, Frame* f, int item) noexcept nogil:
    """Paid resources go into the bag at once, coins to the general supply (BAU)."""
    cdef int r
    g.pl[f.seat].store[item] -= 1
    if item == 5:
        g.coins += 1
    else:
        g.bag[item] += 1
    for r in range(5):
        if f.v[r]:
            f.v[r] -= 1
            return
    f.d -= 1
    f.e = item


cdef bint pay_step(GameS* g) noexcept nogil:
    """Finish a payment or apply a forced step; False when a real choice is left."""
    cdef Frame* f = &g.stack[g.sp - 1]
    cdef int items[6]
    cdef int n, seat, target, x, y
    if f.d == 0 and not (f.v[0] or f.v[1] or f.v[2] or f.v[3] or f.v[4]):
        seat = f.seat
        target = f.a
        x = f.b
        y = f.c
        g.sp -= 1
        if target == 0:
            complete_stage(g, seat, x, y)
        else:
            place_building(g, seat, x)
        return True
    n = pay_items(g, f, items)
    if n == 1:
        pay_item(g, f, items[0])
        return True
    return False


# ---------------------------------------------------------------- legal actions

cdef inline bint supply_paid(const Frame* f) noexcept nogil:
    """Whether a unit of this tribute came from the supply board (the globe's one)."""
    cdef int k
    for k in range(f.npaid):
        if f.paid[k] & 1:
            return True
    return False


cdef inline int decider(const Frame* f) noexcept nogil:
    if f.kind == F_ASK or f.kind == F_RESPOND:
        return f.v[f.a]
    if f.kind == F_TRIBUTE or f.kind == F_TRADE:
        return f.w[f.a]
    if f.kind == F_ANSWER:
        return f.d
    return f.seat


cdef inline int* source_counts(GameS* g, int source) noexcept nogil:
    if source == SRC_BAG:
        return g.bag
    if source == SRC_SUPPLY:
        return g.supply
    return g.pl[source].store


cdef void regular(GameS* g, int seat, int mask) noexcept nogil:
    """The four regular actions (AKTION 1-4) not excluded by ``mask`` (Sappho)."""
    cdef Player* p = &g.pl[seat]
    cdef int r, n0
    cdef bint can
    if not mask & 1:
        add_act(g, V_PRODUCE, 0, 0, 0, 0)
    if not mask & 2:
        for r in range(5):
            if g.supply[r]:
                add_act(g, V_SUBSIDY, r, 0, 0, 0)
    if not mask & 4:
        n0 = g.nacts
        can = build_options(g, seat, 0, True)
        g.nacts = n0
        if can:
            add_act(g, V_BUILD, 0, 0, 0, 0)
    if not mask & 8:
        for r in range(5):
            if p.store[r] >= 2:
                add_act(g, V_SELL, 0, 0, 0, 0)
                break


cdef int gen(GameS* g) noexcept nogil:
    """Fill ``g.acts`` with the legal actions of the top frame, in the Python engine's order."""
    cdef Frame* f
    cdef Player* p
    cdef Player* o
    cdef int k, r, i, slot, q, n, kind, me, gi, ti, give, get
    cdef int* counts
    cdef int items[6]
    g.nacts = 0
    if g.sp == 0:
        return 0
    f = &g.stack[g.sp - 1]
    kind = f.kind
    p = &g.pl[f.seat]
    if kind == F_TURN:
        regular(g, f.seat, 0)
        if p.trig_mask & (1 << T_NEW_ACTION):
            for k in range(p.nplaced):
                if g.t.b[p.placed[k]].eff.trig == T_NEW_ACTION:
                    add_act(g, V_NEW, p.placed[k], 0, 0, 0)
        if p.leader >= 0 and p.leader_state == 0 and g.t.l[p.leader].eff.op == OP_L_SAPPHO:
            add_act(g, V_LEADER, 0, 0, 0, 0)
    elif kind == F_PAY:
        n = pay_items(g, f, items)
        for k in range(n):
            add_act(g, V_PAY, items[k], 0, 0, 0)
    elif kind == F_BUILD:
        build_options(g, f.seat, f.a, False)
    elif kind == F_DISCARD:
        for i in range(6):
            if p.store[i]:
                add_act(g, V_DISCARD, i, 0, 0, 0)
    elif kind == F_SUPPLY or kind == F_RETURN:
        for r in range(5):
            if f.v[r]:
                add_act(g, V_SUPPLY if kind == F_SUPPLY else V_RETURN, r, 0, 0, 0)
    elif kind == F_SELL:
        for r in range(5):
            if p.store[r] >= 2:
                add_act(g, V_SELLR, r, 0, 0, 0)
        if f.a >= 1:
            add_act(g, V_DONE, 0, 0, 0, 0)
    elif kind == F_TAKE:
        counts = source_counts(g, f.a)
        for r in range(5):
            if counts[r]:
                add_act(g, V_TAKE, r, 0, 0, 0)
    elif kind == F_KIND:
        for r in range(5):
            if g.supply[r]:
                add_act(g, V_KIND, r, 0, 0, 0)
    elif kind == F_SAPPHO:
        regular(g, f.seat, f.a)
        add_act(g, V_DONE, 0, 0, 0, 0)
    elif kind == F_ASK or kind == F_RESPOND:
        add_act(g, V_PASS, 0, 0, 0, 0)
        add_act(g, V_REVEAL, 0, 0, 0, 0)
    elif kind == F_TRIBUTE:
        o = &g.pl[f.w[f.a]]
        add_act(g, V_STOP, 0, 0, 0, 0)
        for r in range(5):
            if o.store[r] and (f.v[r] or f.v[5]):
                add_act(g, V_TRIBUTE, r, 0, 0, 0)
        if o.store[5] and (f.v[0] or f.v[1] or f.v[2] or f.v[3] or f.v[4] or f.v[5] or f.v[6]):
            add_act(g, V_TRIBUTE, 5, 0, 0, 0)
        # the globe: ONE resource of the opponents' choice from the supply board
        if p.leader >= 0 and g.t.l[p.leader].globe and g.n <= 3 and not supply_paid(f):
            for r in range(5):
                if g.supply[r] and (f.v[r] or f.v[5]):
                    add_act(g, V_TRIBUTE, r, 1, 0, 0)
    elif kind == F_TRADE:
        # the trade window (VARIANTEN, HANDEL): Game._opt_trade in the same order
        me = f.w[f.a]
        add_act(g, V_PASS, 0, 0, 0, 0)
        for k in range(f.b):
            q = f.w[k]
            if q == me:
                continue
            o = &g.pl[q]
            for gi in range(7):
                give = gi if gi < 6 else -1
                if give >= 0 and not g.pl[me].store[give]:
                    continue
                for ti in range(7):
                    get = ti if ti < 6 else -1
                    if give == get or (get >= 0 and not o.store[get]):
                        continue
                    if ((get < 0 and held(o) + 1 > g.t.storage)
                            or (give < 0 and held(&g.pl[me]) + 1 > g.t.storage)):
                        continue
                    add_act(g, V_OFFER, q, give + 1, get + 1, 0)
    elif kind == F_ANSWER:
        add_act(g, V_ACCEPT, 0, 0, 0, 0)
        add_act(g, V_DECLINE, 0, 0, 0, 0)
    elif kind == F_RAMSES:
        for k in range(1, g.n):
            q = (f.seat + k) % g.n
            o = &g.pl[q]
            for slot in range(o.nw):
                for i in range(g.t.w[o.wonder[slot]].nst):
                    if o.built[slot] >> i & 1:
                        add_act(g, V_DESTROY, q, slot, i, 0)
    elif kind == F_PLACE:
        for slot in range(p.nw):
            if f.a == -1 and locked(g, p, slot):
                continue
            if f.a != -1 and f.a != slot:
                continue
            for i in range(g.t.w[p.wonder[slot]].nst):
                if stage_open(g, p, slot, i):
                    add_act(g, V_PLACE, slot, i, 0, 0)
    elif kind == F_WONDER:
        for k in range(g.ndisp):
            if g.disp_taken[k] < 0:
                add_act(g, V_WONDER, k, 0, 0, 0)
    elif kind == F_BOARD:
        add_act(g, V_BOARD, 0, 0, 0, 0)
        add_act(g, V_BOARD, 1, 0, 0, 0)
    return g.nacts


# ---------------------------------------------------------------- the frame loop

cdef void auto_frame(GameS* g, const Frame* f) noexcept nogil:
    cdef int seat = f.seat
    cdef int n = g.n
    cdef int k, q, r, m
    cdef int kind = f.kind
    cdef Player* p = &g.pl[seat]
    cdef Frame* nf
    cdef const Lead* lead
    if kind == F_TURN_START:
        if g.max_turns >= 0 and g.turn >= g.max_turns:
            end_game(g, -1)
            return
        g.current = seat
        p.used = 0
        push(g, F_TURN_END, seat)
        push(g, F_TURN, seat)
        if g.trade:  # HANDEL: the others may trade while seat is on turn
            nf = push(g, F_TRADE, seat)
            for k in range(1, n):
                nf.w[k - 1] = (seat + k) % n
            nf.b = n - 1
        if p.zeus:  # FAQ I: the coin from the competition ground at the start of the turn
            p.store[5] += p.zeus
            p.zeus = 0
            overflow(g, seat)
        p.got_coin = 0
    elif kind == F_TURN_END:
        g.turn += 1
        if p.trig_mask & (1 << T_TURN) and not p.got_coin and g.coins > 0:
            g.coins -= 1
            p.zeus += 1
        push(g, F_NEXT, seat)
        if g.leaders:
            push(g, F_OPEN_WINDOW, seat)
    elif kind == F_NEXT:
        push(g, F_TURN_START, (seat + 1) % n)
    elif kind == F_OPEN_WINDOW:
        m = 0
        nf = NULL
        for k in range(n):
            q = (seat + k) % n
            if (g.pl[q].leader >= 0 and g.pl[q].leader_state == 0
                    and g.t.l[g.pl[q].leader].eff.op != OP_L_SAPPHO):
                if nf == NULL:
                    nf = push(g, F_ASK, seat)
                nf.v[m] = q
                m += 1
        if nf != NULL:
            nf.b = m
    elif kind == F_RESOLVE:
        if p.leader_state == 2:
            return
        push(g, F_OUTCOME, seat)
        push(g, F_TRIBUTE_START, seat)
        m = 0
        nf = NULL
        for k in range(1, n):
            q = (seat + k) % n
            if (g.pl[q].leader >= 0 and g.pl[q].leader_state == 0
                    and g.t.l[g.pl[q].leader].eff.op == OP_L_CARTIMANDUA):
                if nf == NULL:
                    nf = push(g, F_RESPOND, seat)
                nf.v[m] = q
                m += 1
        if nf != NULL:
            nf.b = m
    elif kind == F_TRIBUTE_START:
        if p.leader_state == 2 or p.leader < 0:
            return
        lead = &g.t.l[p.leader]
        nf = push(g, F_TRIBUTE, seat)
        for r in range(5):
            nf.v[r] = lead.res[r]
        nf.v[5] = lead.joker
        nf.v[6] = lead.coin
        for k in range(1, n):
            nf.w[k - 1] = (seat + k) % n
        nf.b = n - 1
    elif kind == F_OUTCOME:
        if p.leader_state == 2 or p.leader < 0:
            return
        p.leader_state = 3
        call_effect(g, seat, &g.t.l[p.leader].eff, 0)
    elif kind == F_COUNTER:
        if p.leader_state == 3:  # Cartimandua was not defeated
            g.pl[f.a].leader_state = 2
    elif kind == F_SETUP_DONE:
        for k in range(g.ndisp):
            if g.disp_taken[k] < 0:
                for r in range(2):
                    if g.disp_r[k][r] >= 0:
                        g.bag[g.disp_r[k][r]] += 1
        g.ndisp = 0
        push(g, F_TURN_START, 0)


cdef void run(GameS* g) noexcept nogil:
    cdef Frame f
    cdef Frame* top
    cdef int kind
    while g.sp > 0 and not g.err:
        top = &g.stack[g.sp - 1]
        kind = top.kind
        if kind <= F_COUNTER:
            memcpy(&f, top, sizeof(Frame) - sizeof(short) * MAXPAID)
            g.sp -= 1
            auto_frame(g, &f)
        elif kind == F_DISCARD:
            if held(&g.pl[top.seat]) <= g.t.storage:
                g.sp -= 1
            else:
                return
        elif kind == F_PAY:
            if not pay_step(g):
                return
        elif kind == F_TAKE or kind == F_PLACE or kind == F_RAMSES or kind == F_KIND:
            if gen(g) == 0:
                g.sp -= 1  # nothing there: the rest lapses (NIMM)
            else:
                return
        else:
            return


cdef void do_action(GameS* g, const Act* a) noexcept nogil:
    cdef Frame f
    cdef Frame* top = &g.stack[g.sp - 1]
    cdef Frame* nf
    cdef Player* p
    cdef Player* owner
    cdef const Won* w
    cdef const Bld* b
    cdef int seat = top.seat
    cdef int kind = top.kind
    cdef int v = a.verb
    cdef int k, r, item, who, slot, new_phase, cost_coin, cost_joker, fs
    cdef int need[5]
    cdef signed char drawn[8]
    p = &g.pl[seat]
    if kind == F_PAY:
        pay_item(g, top, a.x)
    elif kind == F_DISCARD:
        p.store[a.x] -= 1
        if a.x == 5:
            g.coins += 1
        else:
            g.supply[a.x] += 1
    elif kind == F_TURN:
        g.sp -= 1
        if v == V_NEW:  # AKTION 5: no other building triggers
            call_effect(g, seat, &g.t.b[a.x].eff, 0)
        elif v == V_LEADER:  # FAQ II Sappho: only in the own turn, as the turn
            p.leader_state = 1
            push(g, F_RESOLVE, seat)
        else:
            start_regular(g, seat, a)
    elif kind == F_BUILD:
        g.sp -= 1
        if v == V_DONE:
            return
        if v == V_STAGE:
            slot = a.x
            w = &g.t.w[p.wonder[slot]]
            for r in range(5):
                need[r] = w.res[a.y][r]
            cost_joker = w.joker[a.y]
            cost_coin = w.coin[a.y]
            new_phase = 4 if top.a == 2 or top.a == 4 else 1
        else:
            b = &g.t.b[a.x]
            for r in range(5):
                need[r] = b.res[r]
            cost_joker = b.joker
            cost_coin = b.coin
            new_phase = 2 if top.a == 0 else 3
        if new_phase != 3:
            nf = push(g, F_BUILD, seat)
            nf.a = new_phase
        p.used |= a.dmask
        for k in range(p.nplaced):
            if a.dmask >> k & 1:
                b = &g.t.b[p.placed[k]]
                need[b.eff.res] -= b.eff.amount
                if need[b.eff.res] < 0:
                    need[b.eff.res] = 0
        p.store[5] -= cost_coin
        g.coins += cost_coin
        nf = push(g, F_PAY, seat)
        if v == V_STAGE:
            nf.a = 0
            nf.b = a.x
            nf.c = a.y
        else:
            nf.a = 1
            nf.b = a.x
        for r in range(5):
            nf.v[r] = need[r]
        nf.d = cost_joker
        nf.e = 0
    elif kind == F_SELL:
        k = top.a
        g.sp -= 1
        if v == V_DONE:
            return
        nf = push(g, F_SELL, seat)
        nf.a = k + 1
        r = a.x
        p.store[r] -= 2
        g.bag[r] += 2
        gain_coins(g, seat, 1)
        if p.trig_mask & (1 << T_SALE):
            for k in range(p.nplaced):
                if g.t.b[p.placed[k]].eff.trig == T_SALE:
                    call_effect(g, seat, &g.t.b[p.placed[k]].eff, r)
    elif kind == F_TAKE:
        memcpy(&f, top, sizeof(Frame) - sizeof(short) * MAXPAID)
        g.sp -= 1
        if f.b > 1:
            nf = push(g, F_TAKE, seat)
            nf.a = f.a
            nf.b = f.b - 1
        source_counts(g, f.a)[a.x] -= 1
        p.store[a.x] += 1
        overflow(g, seat)
    elif kind == F_SUPPLY or kind == F_RETURN:
        memcpy(drawn, top.v, 8)
        g.sp -= 1
        drawn[a.x] -= 1
        if kind == F_SUPPLY:
            g.supply[a.x] += 1
            prod_gain(g, seat, drawn)
        else:
            g.bag[a.x] += 1
            prod_keep(g, seat, drawn)
    elif kind == F_KIND:
        g.sp -= 1
        k = g.supply[a.x]
        g.supply[a.x] = 0
        p.store[a.x] += k
        overflow(g, seat)
    elif kind == F_SAPPHO:
        k = top.a
        g.sp -= 1
        if v == V_DONE:
            return
        r = 1 if v == V_PRODUCE else 2 if v == V_SUBSIDY else 4 if v == V_BUILD else 8
        if k | r != 15:
            nf = push(g, F_SAPPHO, seat)
            nf.a = k | r
        start_regular(g, seat, a)
    elif kind == F_ASK:
        memcpy(&f, top, sizeof(Frame) - sizeof(short) * MAXPAID)
        g.sp -= 1
        if v == V_REVEAL:
            f.w[f.c] = f.v[f.a]
            f.c += 1
        if f.a + 1 < f.b:
            nf = push(g, F_ASK, seat)
            memcpy(nf.v, f.v, 8)
            memcpy(nf.w, f.w, 8)
            nf.a = f.a + 1
            nf.b = f.b
            nf.c = f.c
            return
        if f.c:
            push(g, F_OPEN_WINDOW, seat)
            for k in range(f.c):
                g.pl[f.w[k]].leader_state = 1
            for k in range(f.c - 1, -1, -1):
                push(g, F_RESOLVE, f.w[k])
    elif kind == F_RESPOND:
        memcpy(&f, top, sizeof(Frame) - sizeof(short) * MAXPAID)
        g.sp -= 1
        if v == V_REVEAL:
            who = f.v[f.a]
            g.pl[who].leader_state = 1
            nf = push(g, F_COUNTER, who)
            nf.a = seat
            push(g, F_OUTCOME, who)
            push(g, F_TRIBUTE_START, who)
        elif f.a + 1 < f.b:
            nf = push(g, F_RESPOND, seat)
            memcpy(nf.v, f.v, 8)
            nf.a = f.a + 1
            nf.b = f.b
    elif kind == F_TRIBUTE:
        memcpy(&f, top, sizeof(Frame))
        g.sp -= 1
        if v == V_STOP:
            if f.a + 1 < f.b:
                nf = push(g, F_TRIBUTE, seat)
                memcpy(nf, &f, sizeof(Frame))
                nf.a = f.a + 1
            else:  # not paid in full: everything goes back
                for k in range(f.npaid):
                    who = f.paid[k] >> 4
                    item = (f.paid[k] >> 1) & 7
                    if f.paid[k] & 1:
                        g.supply[item] += 1
                    else:
                        g.pl[who].store[item] += 1
            return
        item = a.x
        fs = a.y
        who = f.w[f.a]
        if fs:
            g.supply[item] -= 1
        else:
            g.pl[who].store[item] -= 1
        if item == 5:
            if f.v[6]:
                slot = 6
            else:
                slot = 5
                for k in range(5):
                    if f.v[k]:
                        slot = k
                        break
        else:
            slot = item if f.v[item] else 5
        f.v[slot] -= 1
        if f.npaid < MAXPAID:
            f.paid[f.npaid] = who * 16 + item * 2 + fs
            f.npaid += 1
        else:
            g.err = 4
        if f.v[0] or f.v[1] or f.v[2] or f.v[3] or f.v[4] or f.v[5] or f.v[6]:
            nf = push(g, F_TRIBUTE, seat)
            memcpy(nf, &f, sizeof(Frame))
            return
        owner = &g.pl[seat]
        owner.leader_state = 2
        for k in range(f.npaid):
            owner.store[(f.paid[k] >> 1) & 7] += 1
        overflow(g, seat)
    elif kind == F_RAMSES:
        g.sp -= 1
        g.pl[a.x].built[a.y] &= ~(1 << a.z)
        g.pl[a.x].rebuild[a.y] = a.z
    elif kind == F_TRADE:
        memcpy(&f, top, sizeof(Frame) - sizeof(short) * MAXPAID)
        g.sp -= 1
        if v == V_PASS:
            if f.a + 1 < f.b:
                nf = push(g, F_TRADE, seat)
                memcpy(nf.w, f.w, 8)
                nf.a = f.a + 1
                nf.b = f.b
            return
        nf = push(g, F_ANSWER, seat)
        memcpy(nf.w, f.w, 8)
        nf.a = f.a
        nf.b = f.b
        nf.c = f.w[f.a]
        nf.d = a.x
        nf.e = a.y - 1
        nf.v[0] = a.z - 1
    elif kind == F_ANSWER:
        memcpy(&f, top, sizeof(Frame) - sizeof(short) * MAXPAID)
        g.sp -= 1
        if v == V_ACCEPT:
            if f.e >= 0:
                g.pl[f.c].store[f.e] -= 1
                g.pl[f.d].store[f.e] += 1
            if f.v[0] >= 0:
                g.pl[f.d].store[f.v[0]] -= 1
                g.pl[f.c].store[f.v[0]] += 1
        if f.a + 1 < f.b:
            nf = push(g, F_TRADE, seat)
            memcpy(nf.w, f.w, 8)
            nf.a = f.a + 1
            nf.b = f.b
    elif kind == F_PLACE:
        memcpy(&f, top, sizeof(Frame) - sizeof(short) * MAXPAID)
        g.sp -= 1
        if f.b > 1:
            nf = push(g, F_PLACE, seat)
            nf.a = f.a
            nf.b = f.b - 1
        complete_stage(g, seat, a.x, a.y)
    elif kind == F_WONDER:
        g.sp -= 1
        g.disp_taken[a.x] = seat
        add_wonder(g, p, g.disp_w[a.x])
        for r in range(2):
            if g.disp_r[a.x][r] >= 0:
                p.store[g.disp_r[a.x][r]] += 1
    elif kind == F_BOARD:
        g.sp -= 1
        p.board = p.board_opt[a.x]


cdef inline void apply_act(GameS* g, const Act* a) noexcept nogil:
    do_action(g, a)
    run(g)


cdef void shuffle(MT* m, int* x, int n) noexcept nogil:
    cdef int i, j, t
    for i in range(n - 1, 0, -1):
        j = randbelow(m, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t


cdef void game_init(GameS* g, const Tables* t, int n, int two_card, int leaders,
                    int max_turns, int trade=0) noexcept nogil:
    """Set up like ``Game.new`` (SPIELVORBEREITUNG I-VIII); ``g.rng`` is already seeded."""
    cdef int order[MAXBLD]
    cdef int i, k, nw
    cdef Player* p
    g.t = t
    g.n = n
    g.two_card = two_card
    g.leaders = leaders
    g.trade = trade
    g.max_turns = max_turns
    g.coins = t.coins
    g.current = 0
    g.turn = 0
    g.winner = -1
    g.first_done = 0
    g.err = 0
    g.sp = 0
    g.nacts = 0
    g.ndisp = 0
    for i in range(5):
        g.supply[i] = 1
        g.bag[i] = t.bagn[n]
    for i in range(n):
        p = &g.pl[i]
        memset(p, 0, sizeof(Player))
        p.board = -1
        p.leader = -1
        p.active = -1
    for i in range(t.nboard):
        order[i] = i
    shuffle(&g.rng, order, t.nboard)
    for i in range(n):
        g.pl[i].board_opt[0] = order[2 * i]
        g.pl[i].board_opt[1] = order[2 * i + 1]
    if leaders:
        for i in range(t.nlead):
            order[i] = i
        shuffle(&g.rng, order, t.nlead)
        for i in range(n):
            g.pl[i].leader = order[i]
    for i in range(t.nwon):
        order[i] = i
    shuffle(&g.rng, order, t.nwon)
    nw = t.nwon
    if two_card:
        for i in range(n):
            nw -= 1
            add_wonder(g, &g.pl[i], order[nw])
    for k in range(n + 1):
        g.disp_w[k] = order[k]
        g.disp_r[k][0] = draw(g)
        g.disp_r[k][1] = draw(g)
        g.disp_taken[k] = -1
    g.ndisp = n + 1
    push(g, F_SETUP_DONE, 0)
    for i in range(n - 1, -1, -1):
        push(g, F_BOARD, i)
    for i in range(n):
        push(g, F_WONDER, i)
    run(g)



# ---------------------------------------------------------------- bots (agon...bots)

cdef enum:
    BOT_RANDOM = 0
    BOT_HEURISTIC
    BOT_SEARCH

BOT_NAMES = ("random", "heuristic", "search")

ctypedef struct Bot:
    int kind
    int worlds
    int depth
    MT rng         # random.Random(seed) of the bot
    MT policy      # search: the heuristic bot it uses off the root (seed + 1)


cdef inline double mt_random(MT* m) noexcept nogil:
    """``random.Random.random()``: 53 bits from two words."""
    cdef uint32_t a = mt_next(m) >> 5
    cdef uint32_t b = mt_next(m) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef void needs(GameS* g, int seat, double* need) noexcept nogil:
    """Open stages count fully, later ones half (bots.needs)."""
    cdef Player* p = &g.pl[seat]
    cdef const Won* w
    cdef int slot, i, r, built, req
    cdef double weight
    for r in range(6):
        need[r] = 0.0
    for slot in range(p.nw):
        w = &g.t.w[p.wonder[slot]]
        built = p.built[slot]
        for i in range(w.nst):
            if built >> i & 1:
                continue
            req = w.prereq[i]
            weight = 1.0 if built & req == req else 0.5
            for r in range(5):
                need[r] += w.res[i][r] * weight
            need[5] += w.coin[i] * weight


cdef double progress(GameS* g, int seat) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef const Won* w
    cdef int slot, i, done = 0, total = 0
    for slot in range(p.nw):
        w = &g.t.w[p.wonder[slot]]
        total += w.sum
        for i in range(w.nst):
            if p.built[slot] >> i & 1:
                done += w.total[i]
    return (<double>done) / total if total else 0.0


cdef double distance(GameS* g, int seat) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef const Won* w
    cdef int slot, i, r, rem = 0, covered = 0, x
    cdef int full[6]
    for r in range(6):
        full[r] = 0
    for slot in range(p.nw):
        w = &g.t.w[p.wonder[slot]]
        for i in range(w.nst):
            if not p.built[slot] >> i & 1:
                rem += w.total[i]
                for r in range(5):
                    full[r] += w.res[i][r]
                full[5] += w.coin[i]
    for r in range(5):
        covered += p.store[r] if p.store[r] < full[r] else full[r]
    x = rem - covered
    if x < 0:
        x = 0
    covered += p.store[5] if p.store[5] < x else x
    return rem - 0.3 * covered


cdef double value(GameS* g, int seat) noexcept nogil:
    """The race: how much closer to a finished wonder than the best opponent (bots.value)."""
    cdef double mine, best = 0.0, d
    cdef int s, first = 1, tok
    if g.sp == 0:
        if g.winner == seat:
            return 1000.0
        if g.winner >= 0:
            return -1000.0
    mine = distance(g, seat)
    for s in range(g.n):
        if s != seat:
            d = distance(g, s)
            if first or d < best:
                best = d
                first = 0
    tok = g.pl[seat].tokens if g.pl[seat].tokens < 4 else 4
    return best - mine + 0.2 * tok


cdef int heuristic_turn(GameS* g, int seat, const double* need) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int n = g.nacts
    cdef int i, r, v, build_i = -1, sell_i = -1, produce_i = -1, best_sub = -1, best = -1
    cdef bint any_stage = False, low_bag, coin_short
    cdef double deficit[5]
    cdef double key, best_key = 0.0
    for i in range(n):
        v = g.acts[i].verb
        if v == V_BUILD:
            build_i = i
        elif v == V_SELL:
            sell_i = i
        elif v == V_PRODUCE:
            produce_i = i
    if build_i >= 0:
        build_options(g, seat, 0, False)  # appended after the legal actions, then dropped
        for i in range(n, g.nacts):
            if g.acts[i].verb == V_STAGE:
                any_stage = True
        g.nacts = n
        if any_stage or p.tokens < 2:
            return build_i
    for r in range(5):
        deficit[r] = need[r] - p.store[r]
        if not deficit[r] > 0.0:
            deficit[r] = 0.0
    for i in range(n):
        if g.acts[i].verb == V_SUBSIDY:
            r = g.acts[i].x
            key = g.supply[r] if g.supply[r] < deficit[r] else deficit[r]
            if best_sub < 0 or key > best_key:
                best_sub = i
                best_key = key
    low_bag = g.bag[0] + g.bag[1] + g.bag[2] + g.bag[3] + g.bag[4] < 6
    if best_sub >= 0:
        r = g.acts[best_sub].x
        key = g.supply[r] if g.supply[r] < deficit[r] else deficit[r]
        if key >= (1 if low_bag else 2):
            return best_sub
    for i in range(n):
        if g.acts[i].verb == V_NEW:
            return i
    coin_short = need[5] >= 1 and p.store[5] < 1
    if sell_i >= 0 and (held(p) >= 7 or coin_short):
        return sell_i
    if coin_short:
        for i in range(n):
            if g.acts[i].verb == V_SUBSIDY:
                r = g.acts[i].x
                if p.store[r] + g.supply[r] >= 2:
                    if best < 0 or g.supply[r] > best_key:
                        best = i
                        best_key = g.supply[r]
        if best >= 0:
            return best
    if produce_i >= 0:
        return produce_i
    if best_sub >= 0:
        return best_sub
    return 0


cdef int choose_heuristic(GameS* g, MT* rng) noexcept nogil:
    """``HeuristicBot.choose`` on the legal actions in ``g.acts``: the index it picks."""
    cdef int n = g.nacts
    cdef Frame* f
    cdef Player* p
    cdef int seat, kind, i, r, best = -1, k1, k2, b1 = 0, b2 = 0, q, leader
    cdef double need[6]
    cdef double surplus[5]
    cdef double key, best_key = 0.0, pr, best_pr = 0.0
    cdef uint32_t dm
    if n <= 1:
        return 0
    f = &g.stack[g.sp - 1]
    seat = decider(f)
    kind = f.kind
    p = &g.pl[seat]
    needs(g, seat, need)
    for r in range(5):
        surplus[r] = p.store[r] - need[r]
    if kind == F_WONDER:
        for i in range(n):
            k1 = g.t.w[g.disp_w[g.acts[i].x]].sum
            k2 = g.t.w[g.disp_w[g.acts[i].x]].rank
            if best < 0 or k1 < b1 or (k1 == b1 and k2 < b2):
                best, b1, b2 = i, k1, k2
        return best
    if kind == F_BOARD:
        return randbelow(rng, n)
    if kind == F_TURN or kind == F_SAPPHO:
        return heuristic_turn(g, seat, need)
    if kind == F_BUILD:
        for i in range(n):
            if g.acts[i].verb == V_STAGE:
                k1 = g.t.w[p.wonder[g.acts[i].x]].total[g.acts[i].y]
                k2 = 1
                dm = g.acts[i].dmask
                while dm:
                    k2 += dm & 1
                    dm >>= 1
                if best < 0 or k1 > b1 or (k1 == b1 and k2 > b2):
                    best, b1, b2 = i, k1, k2
        if best >= 0:
            return best
        for i in range(n):
            if g.acts[i].verb == V_BUILDING:
                if p.tokens < 2 or mt_random(rng) < 0.5:
                    return i
                break
        return n - 1
    if kind == F_PAY or kind == F_DISCARD or kind == F_SUPPLY or kind == F_RETURN:
        for i in range(n):
            r = g.acts[i].x
            key = surplus[r] if r < 5 else -1.5
            if best < 0 or key > best_key or (key == best_key and -r > b1):
                best, best_key, b1 = i, key, -r
        return best
    if kind == F_TAKE:
        for i in range(n):
            r = g.acts[i].x
            key = need[r] - p.store[r]
            if best < 0 or key > best_key:
                best, best_key = i, key
        return best
    if kind == F_KIND:
        for i in range(n):
            r = g.acts[i].x
            key = g.supply[r] * (1 + need[r])
            if best < 0 or key > best_key:
                best, best_key = i, key
        return best
    if kind == F_SELL:
        for i in range(n):
            if g.acts[i].verb == V_SELLR and surplus[g.acts[i].x] >= 2:
                if best < 0 or surplus[g.acts[i].x] > best_key:
                    best, best_key = i, surplus[g.acts[i].x]
        if best < 0 and f.a == 0:
            for i in range(n):
                if g.acts[i].verb == V_SELLR:
                    if best < 0 or surplus[g.acts[i].x] > best_key:
                        best, best_key = i, surplus[g.acts[i].x]
        if best >= 0:
            return best
        return n - 1 if g.acts[n - 1].verb == V_DONE else 0
    if kind == F_ASK:
        return 1 if progress(g, seat) > 0.2 else 0  # [pass, reveal]
    if kind == F_RESPOND:
        return 1
    if kind == F_TRIBUTE:
        for i in range(n):
            if g.acts[i].verb == V_TRIBUTE and g.acts[i].y:
                return i  # the globe: pay from the supply board
        for i in range(n):
            if g.acts[i].verb == V_TRIBUTE and g.acts[i].x < 5 and surplus[g.acts[i].x] >= 1:
                if mt_random(rng) < 0.7:
                    return i
                break
        return 0  # stop
    if kind == F_RAMSES:
        leader = -1
        for q in range(g.n):  # the seats in the actions, in ascending order (a set of ints)
            for i in range(n):
                if g.acts[i].x == q:
                    pr = progress(g, q)
                    if leader < 0 or pr > best_pr:
                        leader, best_pr = q, pr
                    break
        for i in range(n):
            if g.acts[i].x == leader:
                return i
        return 0
    if kind == F_PLACE:
        for i in range(n):
            k1 = g.t.w[p.wonder[g.acts[i].x]].total[g.acts[i].y]
            if best < 0 or k1 > b1:
                best, b1 = i, k1
        return best
    if kind == F_TRADE:  # HeuristicBot._offer: the swap that helps both most, else pass
        best = 0
        for i in range(1, n):
            if g.acts[i].y == 0 or g.acts[i].z == 0:
                continue
            key = trade_gain(g, seat, g.acts[i].z - 1, g.acts[i].y - 1)
            pr = trade_gain(g, g.acts[i].x, g.acts[i].y - 1, g.acts[i].z - 1)
            if key > 0 and pr > 0 and key + pr > best_key:
                best, best_key = i, key + pr
        return best
    if kind == F_ANSWER:
        return 0 if trade_gain(g, seat, f.e, f.v[0]) > 0 else 1
    return 0


cdef double trade_gain(GameS* g, int seat, int receive, int lose) noexcept nogil:
    """``bots._gain``: the lack of what is received minus the lack of what is given after."""
    cdef double need[6]
    cdef double got = 0.0, lost = 0.0
    cdef Player* p = &g.pl[seat]
    needs(g, seat, need)
    if receive >= 0:
        got = need[receive] - p.store[receive]
    if lose >= 0:
        lost = need[lose] - (p.store[lose] - 1)
    return (got if got > 0.0 else 0.0) - (lost if lost > 0.0 else 0.0)


cdef void copy_game(GameS* dst, const GameS* src) noexcept nogil:
    """Everything but the legal-action buffer and the generator (``Game.clone``)."""
    cdef size_t head = <size_t>(<const char*>&src.stack[0] - <const char*>src)
    memcpy(dst, src, head)
    memcpy(dst.stack, src.stack, src.sp * sizeof(Frame))


cdef void determinize(GameS* dst, const GameS* src, int seat, const MT* fresh) noexcept nogil:
    """``SearchBot._determinize``: a fresh generator for the draws (``fresh``: seeded with
    the world's seed), and the opponents' hidden leaders redealt from the leaders the bot has
    not seen, shuffled by another generator with the same seed."""
    cdef MT m
    cdef int pool[MAXLEAD]
    cdef unsigned char seen[MAXLEAD]
    cdef int s, k, np = 0, h = 0
    cdef const Player* p
    copy_game(dst, src)
    memcpy(&dst.rng, fresh, sizeof(MT))
    if not src.leaders:
        return
    memset(seen, 0, MAXLEAD)
    for s in range(src.n):
        p = &src.pl[s]
        if p.leader >= 0 and (s == seat or p.leader_state):
            seen[p.leader] = 1
    for k in range(src.t.nlead):
        if not seen[k]:
            pool[np] = k
            np += 1
    memcpy(&m, fresh, sizeof(MT))
    shuffle(&m, pool, np)
    for s in range(src.n):
        p = &src.pl[s]
        if s != seat and p.leader >= 0 and not p.leader_state:
            if h < np:
                dst.pl[s].leader = pool[h]
                h += 1


cdef double rollout(GameS* g, int seat, const MT* fresh, int depth) noexcept nogil:
    """``SearchBot._rollout``: the heuristic (seeded like the world) for ``depth`` rounds."""
    cdef MT policy
    cdef int stop = g.turn + depth * g.n
    cdef int i
    cdef Act a
    memcpy(&policy, fresh, sizeof(MT))
    while g.sp > 0 and g.turn < stop and not g.err:
        if gen(g) == 0:
            g.err = 5
            break
        i = choose_heuristic(g, &policy)
        a = g.acts[i]
        apply_act(g, &a)
    return value(g, seat)


cdef int choose_search(GameS* g, Bot* b, GameS* scratch) noexcept nogil:
    """``SearchBot.choose``: at the turn, build and Sappho decisions each root action is
    played in the same ``worlds`` determinized worlds by the heuristic for ``depth`` rounds.
    The world (its generators all seeded alike, its leaders) is made once and copied for
    each action: the same states the Python bot builds anew each time.  ``scratch`` holds
    two games."""
    cdef int n = g.nacts
    cdef Frame* f = &g.stack[g.sp - 1]
    cdef int seat, w, i, best
    cdef MT fresh
    cdef double total[MAXACT]
    cdef GameS* world = &scratch[1]
    if n == 1 or not (f.kind == F_TURN or f.kind == F_BUILD or f.kind == F_SAPPHO):
        return choose_heuristic(g, &b.policy)
    seat = decider(f)
    for i in range(n):
        total[i] = 0.0
    for w in range(b.worlds):
        mt_seed_u64(&fresh, mt_next(&b.rng))
        mt_twist(&fresh)
        determinize(world, g, seat, &fresh)
        for i in range(n):
            copy_game(scratch, world)
            memcpy(&scratch.rng, &fresh, sizeof(MT))
            apply_act(scratch, &g.acts[i])
            total[i] += rollout(scratch, seat, &fresh, b.depth)
            if scratch.err:
                g.err = scratch.err
    best = 0
    for i in range(1, n):
        if total[i] > total[best]:
            best = i
    return best


cdef int choose(GameS* g, Bot* b, GameS* scratch) noexcept nogil:
    """The bot's pick among the ``g.nacts`` legal actions in ``g.acts``."""
    if b.kind == BOT_RANDOM:
        return randbelow(&b.rng, g.nacts)
    if b.kind == BOT_HEURISTIC:
        return choose_heuristic(g, &b.rng)
    return choose_search(g, b, scratch)


cdef void seed_bot(Bot* b, int kind, uint64_t seed, int worlds, int depth) noexcept nogil:
    b.kind = kind
    b.worlds = worlds
    b.depth = depth
    mt_seed_u64(&b.rng, seed)
    if kind == BOT_SEARCH:
        mt_seed_u64(&b.policy, seed + 1)


# ---------------------------------------------------------------- Python face

cdef int _effect_ref(Eff* e, object ref, object triggers) except -1:
    name, trigger, params = ref
    if name not in EFFECTS:
        raise ValueError(f"effect {name!r} is not implemented by the compiled core")
    if trigger not in TRIGGERS:
        raise ValueError(f"trigger {trigger!r} is not implemented by the compiled core")
    e.op = EFFECTS.index(name)
    e.trig = TRIGGERS.index(trigger)
    res = params.get("resource")
    e.res = -1 if res is None else RESOURCES.index(res)
    e.amount = int(params.get("amount", 1))
    e.coins = int(params.get("coins", 1))
    e.bag = int(params.get("bag", 1))
    e.neigh = int(params.get("neighbours", 1))
    e.take = int(params.get("take", 1))
    if e.op in (OP_SALE_PAIR, OP_BUILD_DISCOUNT, OP_PROD_BONUS, OP_NEW_BAG) and e.res < 0:
        raise ValueError(f"effect {name!r} needs a resource")
    return 0


cdef int _cost(int* res, int* joker, int* coin, object cost) except -1:
    r, j, c = cost
    for k in range(5):
        res[k] = int(r[k])
    joker[0] = int(j)
    coin[0] = int(c)
    return 0


cdef class Core:
    """Content compiled into C tables.

    ``tables`` is a plain mapping built by ``agon.games.one_card_wonder.native``:
    ``rules`` (storage, tokens, coins, {players: bag}), ``wonders`` [(id, [(stage id,
    (res5, joker, coin), prereq mask)], [building index])], ``boards`` [(id, [4 building
    indices])], ``buildings`` [(id, (res5, joker, coin), (effect, trigger, params), after
    index or -1, shares_token, wonder index or -1)], ``leaders`` [(id, (effect, trigger,
    params), (res5, joker, coin), globe)].

    Raises:
        ValueError: content beyond this core's limits or an effect it does not implement.
    """

    cdef Tables* t
    cdef readonly tuple wonder_ids
    cdef readonly tuple stage_ids
    cdef readonly tuple board_ids
    cdef readonly tuple building_ids
    cdef readonly tuple leader_ids
    cdef readonly tuple building_triggers

    def __cinit__(self, tables):
        self.t = <Tables*>calloc(1, sizeof(Tables))
        if self.t == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.t)

    def __init__(self, tables):
        cdef Tables* t = self.t
        cdef int i, k
        storage, tokens, coins, bag = tables["rules"]
        t.storage = storage
        t.tokens = tokens
        t.coins = coins
        for i in range(8):
            t.bagn[i] = -1
        for n, v in bag.items():
            if 2 <= n <= MAXP:
                t.bagn[n] = v
        wonders = tables["wonders"]
        boards = tables["boards"]
        buildings = tables["buildings"]
        leaders = tables["leaders"]
        if len(wonders) > MAXWON or len(boards) > MAXBOARD or len(buildings) > MAXBLD:
            raise ValueError("content too large for the compiled core")
        if len(leaders) > MAXLEAD:
            raise ValueError("content too large for the compiled core")
        t.nwon, t.nboard, t.nbld, t.nlead = len(wonders), len(boards), len(buildings), len(leaders)
        for i, (bid, cost, eff, after, shares, wonder) in enumerate(buildings):
            _cost(t.b[i].res, &t.b[i].joker, &t.b[i].coin, cost)
            _effect_ref(&t.b[i].eff, eff, TRIGGERS)
            t.b[i].after = after
            t.b[i].shares = 1 if shares else 0
            t.b[i].wonder = wonder
        for i, (wid, stages, blds) in enumerate(wonders):
            if len(stages) > MAXSTAGE or len(blds) > MAXWB:
                raise ValueError(f"wonder {wid!r}: too many stages or buildings")
            t.w[i].nst = len(stages)
            t.w[i].sum = 0
            for k, (sid, cost, prereq) in enumerate(stages):
                _cost(t.w[i].res[k], &t.w[i].joker[k], &t.w[i].coin[k], cost)
                t.w[i].prereq[k] = prereq
                t.w[i].total[k] = sum(cost[0]) + cost[1] + cost[2]
                t.w[i].sum += t.w[i].total[k]
            t.w[i].nb = len(blds)
            for k, b in enumerate(blds):
                t.w[i].bld[k] = b
        for k, wid in enumerate(sorted(w[0] for w in wonders)):
            t.w[[w[0] for w in wonders].index(wid)].rank = k
        for i, (bid, blds) in enumerate(boards):
            if len(blds) != 4:
                raise ValueError(f"board {bid!r}: 4 buildings expected")
            for k in range(4):
                t.board_bld[i][k] = blds[k]
        for i, (lid, eff, cost, globe) in enumerate(leaders):
            _effect_ref(&t.l[i].eff, eff, TRIGGERS)
            _cost(t.l[i].res, &t.l[i].joker, &t.l[i].coin, cost)
            t.l[i].globe = 1 if globe else 0
        self.wonder_ids = tuple(w[0] for w in wonders)
        self.stage_ids = tuple(tuple(s[0] for s in w[1]) for w in wonders)
        self.board_ids = tuple(b[0] for b in boards)
        self.building_ids = tuple(b[0] for b in buildings)
        self.leader_ids = tuple(x[0] for x in leaders)
        self.building_triggers = tuple(b[2][1] for b in buildings)

    def check(self, int players, bint two_card, bint leaders):
        """Raise ValueError when a game of this shape is beyond the core (the Python engine
        has validated the rules already)."""
        if not 2 <= players <= MAXP or self.t.bagn[players] < 0:
            raise ValueError(f"players {players}: not in the content's bag table")
        if 2 * players > self.t.nboard or self.t.nwon < players + 1 + (players if two_card else 0):
            raise ValueError("content too small for the player count")
        if leaders and self.t.nlead < players:
            raise ValueError("content has too few leaders")


cdef class NGame:
    """One game on the compiled core, stepped from Python (for the parity tests): the same
    seed gives the same game as ``Game.new(players, seed, variant)``."""

    cdef GameS* g
    cdef readonly Core core

    def __cinit__(self, Core core, int players, seed, bint two_card=False, bint leaders=False,
                  int max_turns=-1, bint trade=False):
        core.check(players, two_card, leaders)
        self.core = core
        self.g = <GameS*>calloc(1, sizeof(GameS))
        if self.g == NULL:
            raise MemoryError()
        mt_seed_py(&self.g.rng, seed)
        game_init(self.g, core.t, players, two_card, leaders, max_turns, trade)
        self._check()

    def __dealloc__(self):
        free(self.g)

    cdef _check(self):
        if self.g.err:
            raise RuntimeError(f"compiled core: internal limit hit (code {self.g.err})")

    @property
    def over(self):
        return self.g.sp == 0

    @property
    def winner(self):
        return None if self.g.winner < 0 else self.g.winner

    @property
    def turn(self):
        return self.g.turn

    def current_player(self):
        return -1 if self.g.sp == 0 else decider(&self.g.stack[self.g.sp - 1])

    def legal_count(self):
        return gen(self.g)

    def legal(self):
        """The text forms of the legal actions, in order (``str(Action)`` of the engine)."""
        cdef int n = gen(self.g)
        cdef int seat = self.current_player()
        return [self._text(&self.g.acts[i], seat) for i in range(n)]

    def apply_index(self, int i):
        """Apply the ``i``-th legal action."""
        cdef int n = gen(self.g)
        cdef Act a
        if not 0 <= i < n:
            raise IndexError(f"action index {i} of {n}")
        a = self.g.acts[i]
        apply_act(self.g, &a)
        self._check()

    def play_random(self, seat_seeds):
        """Finish the game with one ``random.Random(seed).choice`` player per seat; returns
        the number of decisions."""
        cdef MT* mts = <MT*>calloc(MAXP, sizeof(MT))
        cdef long steps = 0
        cdef int n, s
        cdef Act a
        try:
            for s, sd in enumerate(seat_seeds):
                mt_seed_py(&mts[s], sd)
            while self.g.sp > 0 and not self.g.err:
                n = gen(self.g)
                if n == 0:
                    raise RuntimeError("compiled core: no legal action")
                s = decider(&self.g.stack[self.g.sp - 1])
                a = self.g.acts[randbelow(&mts[s], n)]
                apply_act(self.g, &a)
                steps += 1
        finally:
            free(mts)
        self._check()
        return steps

    def play_bots(self, bots, seat_seeds, worlds=8, depth=3):
        """Finish the game with the bots of ``agon.games.one_card_wonder.bots`` (one name and
        seed per seat, as ``make_bot(name, seed)``); returns the index of every choice.
        ``worlds`` and ``depth`` (the search bots' ``SearchBot(seed, worlds, depth)``): one
        number for every seat, or one per seat."""
        cdef Bot* bs = <Bot*>calloc(MAXP, sizeof(Bot))
        cdef GameS* scratch = <GameS*>calloc(2, sizeof(GameS))
        cdef int n, s, i
        cdef Act a
        trace = []
        try:
            if bs == NULL or scratch == NULL:
                raise MemoryError()
            names = list(bots)
            per_worlds = [worlds] * len(names) if isinstance(worlds, int) else list(worlds)
            per_depth = [depth] * len(names) if isinstance(depth, int) else list(depth)
            if len(per_worlds) != len(names) or len(per_depth) != len(names):
                raise ValueError("worlds, depth: one number, or one per seat")
            for s, (name, sd) in enumerate(zip(names, seat_seeds, strict=True)):
                if not (1 <= per_worlds[s] <= 100_000 and 1 <= per_depth[s] <= 1_000):
                    raise ValueError("worlds must be 1…100000 and depth 1…1000")
                seed_bot(&bs[s], BOT_NAMES.index(name), sd, per_worlds[s], per_depth[s])
            while self.g.sp > 0 and not self.g.err:
                n = gen(self.g)
                if n == 0:
                    raise RuntimeError("compiled core: no legal action")
                s = decider(&self.g.stack[self.g.sp - 1])
                i = choose(self.g, &bs[s], scratch)
                trace.append(i)
                a = self.g.acts[i]
                apply_act(self.g, &a)
        finally:
            free(bs)
            free(scratch)
        self._check()
        return trace

    cdef str _text(self, const Act* a, int seat):
        cdef Player* p = &self.g.pl[seat]
        cdef Core c = self.core
        cdef int v = a.verb
        cdef int k
        if v == V_PRODUCE:
            return "produce"
        if v == V_BUILD:
            return "build"
        if v == V_SELL:
            return "sell"
        if v == V_LEADER:
            return "leader"
        if v == V_DONE:
            return "done"
        if v == V_REVEAL:
            return "reveal"
        if v == V_PASS:
            return "pass"
        if v == V_STOP:
            return "stop"
        if v == V_WONDER:
            return "wonder " + c.wonder_ids[self.g.disp_w[a.x]]
        if v == V_BOARD:
            return "board " + c.board_ids[p.board_opt[a.x]]
        if v == V_NEW:
            return "new " + c.building_ids[a.x]
        if v == V_STAGE or v == V_BUILDING or v == V_PLACE:
            if v == V_BUILDING:
                out = "building " + c.building_ids[a.x]
            else:
                out = ("stage " if v == V_STAGE else "place ") + self._stage(seat, a.x, a.y)
            for k in range(p.nplaced):
                if a.dmask >> k & 1:
                    out += " " + c.building_ids[p.placed[k]]
            return out
        if v == V_DESTROY:
            return f"destroy {a.x} " + self._stage(a.x, a.y, a.z)
        if v == V_TRIBUTE and a.y:
            return f"tribute {RESOURCES[a.x]} supply"
        if v == V_OFFER:
            give = "nothing" if a.y == 0 else ITEMS[a.y - 1]
            get = "nothing" if a.z == 0 else ITEMS[a.z - 1]
            return f"offer {a.x} {give} for {get}"
        if v == V_ACCEPT:
            return "accept"
        if v == V_DECLINE:
            return "decline"
        names = {V_SUBSIDY: "subsidy", V_RETURN: "return", V_SUPPLY: "supply", V_PAY: "pay",
                 V_TAKE: "take", V_DISCARD: "discard", V_TRIBUTE: "tribute", V_KIND: "kind",
                 V_SELLR: "sell"}
        return names[v] + " " + ITEMS[a.x]

    cdef str _stage(self, int seat, int slot, int i):
        cdef int w = self.g.pl[seat].wonder[slot]
        return self.core.wonder_ids[w] + ":" + self.core.stage_ids[w][i]

    def stack(self):
        """The frame stack in the Python engine's tuple form (bottom first)."""
        out = []
        for k in range(self.g.sp):
            out.append(self._frame(&self.g.stack[k]))
        return out

    cdef tuple _frame(self, const Frame* f):
        cdef int kind = f.kind
        name = FRAME_NAMES[kind]
        if kind in (F_SETUP_DONE,):
            return (name,)
        if kind == F_COUNTER:
            return (name, f.seat, f.a)
        if kind in (F_SAPPHO, F_SELL, F_BUILD):
            return (name, f.seat, f.a)
        if kind in (F_RETURN, F_SUPPLY):
            drawn = []
            for r in range(5):
                drawn.extend([r] * f.v[r])
            return (name, f.seat, tuple(drawn))
        if kind == F_TAKE:
            src = "bag" if f.a == SRC_BAG else "supply" if f.a == SRC_SUPPLY else f.a
            return (name, f.seat, src, f.b)
        if kind == F_PAY:
            if f.a == 0:
                target = ("stage", f.b, f.c)
            else:
                target = ("building", self.core.building_ids[f.b])
            return (name, f.seat, target, tuple(f.v[r] for r in range(5)), f.d, f.e, -1)
        if kind == F_ASK:
            return (name, f.seat, tuple(f.v[k] for k in range(f.b)), f.a,
                    tuple(f.w[k] for k in range(f.c)))
        if kind == F_RESPOND:
            return (name, f.seat, tuple(f.v[k] for k in range(f.b)), f.a)
        if kind == F_TRIBUTE:
            paid = tuple((f.paid[k] >> 4, (f.paid[k] >> 1) & 7, bool(f.paid[k] & 1))
                         for k in range(f.npaid))
            return (name, f.seat, tuple(f.w[k] for k in range(f.b)), f.a,
                    tuple(f.v[k] for k in range(7)), paid)
        if kind == F_PLACE:
            return (name, f.seat, f.a, f.b)
        if kind == F_TRADE:
            return (name, f.seat, tuple(f.w[k] for k in range(f.b)), f.a)
        if kind == F_ANSWER:
            return (name, f.seat, tuple(f.w[k] for k in range(f.b)), f.a, f.c, f.d, f.e,
                    f.v[0])
        return (name, f.seat)

    def state(self):
        """Every component's place, in the form of ``native.py_state(game)``."""
        cdef GameS* g = self.g
        cdef Player* p
        cdef Core c = self.core
        players = []
        for s in range(g.n):
            p = &g.pl[s]
            by_trigger = {}
            for k in range(p.nplaced):
                by_trigger.setdefault(c.building_triggers[p.placed[k]], []).append(
                    c.building_ids[p.placed[k]])
            players.append((
                tuple(p.store[i] for i in range(6)),
                tuple(c.wonder_ids[p.wonder[k]] for k in range(p.nw)),
                tuple(p.built[k] for k in range(p.nw)),
                tuple(p.rebuild[k] for k in range(p.nw)),
                None if p.board < 0 else c.board_ids[p.board],
                tuple(c.board_ids[p.board_opt[k]] for k in range(2)),
                tuple(sorted(c.building_ids[i] for i in range(c.t.nbld) if p.has[i])),
                p.tokens,
                None if p.leader < 0 else c.leader_ids[p.leader],
                p.leader_state,
                tuple(sorted(c.building_ids[p.placed[k]] for k in range(p.nplaced)
                             if p.used >> k & 1)),
                bool(p.got_coin),
                p.zeus,
                p.active,
                bool(p.archimedes),
                by_trigger,
            ))
        display = tuple(
            (c.wonder_ids[g.disp_w[k]],
             tuple(None if g.disp_r[k][r] < 0 else g.disp_r[k][r] for r in range(2)),
             None if g.disp_taken[k] < 0 else g.disp_taken[k])
            for k in range(g.ndisp))
        return (g.n, tuple(g.bag[i] for i in range(5)), tuple(g.supply[i] for i in range(5)),
                g.coins, g.turn, g.current, None if g.winner < 0 else g.winner,
                bool(g.first_done), display, tuple(players))


def simulate(Core core, int players, int games, seed, bots, bint two_card=False,
             bint leaders=False, int max_turns=-1, int worlds=8, int depth=3,
             bint trade=False):
    """``games`` games seeded like ``agon.games.one_card_wonder.sim.simulate``: a master
    ``random.Random(seed)`` gives each game's seed by ``getrandbits(31)``; the seats' bots
    (one name per seat: random, heuristic, search) rotate by one seat per game; the bot of
    seat s is seeded ``game_seed * 100 + s``.

    Returns one tuple per game: (seed, winner or -1, turns, decisions, wonder indices per
    seat, board index per seat, leader index per seat or -1, bot names per seat).
    """
    cdef GameS* g
    cdef GameS* scratch
    cdef Bot* bs
    cdef MT* master
    cdef uint64_t gseed
    cdef long steps
    cdef int n, s, k, shift, err = 0
    cdef int kinds[MAXP]
    cdef Act a
    core.check(players, two_card, leaders)
    names = list(bots)
    if len(names) != players or any(b not in BOT_NAMES for b in names):
        raise ValueError(f"bots: one of {BOT_NAMES} per seat expected, got {names!r}")
    g = <GameS*>calloc(1, sizeof(GameS))
    scratch = <GameS*>calloc(2, sizeof(GameS))
    bs = <Bot*>calloc(MAXP, sizeof(Bot))
    master = <MT*>calloc(1, sizeof(MT))
    out = []
    if g == NULL or scratch == NULL or bs == NULL or master == NULL:
        free(g)
        free(scratch)
        free(bs)
        free(master)
        raise MemoryError()
    try:
        mt_seed_py(master, seed)
        for k in range(games):
            shift = k % players
            order = names[shift:] + names[:shift]
            for s in range(players):
                kinds[s] = BOT_NAMES.index(order[s])
            with nogil:
                gseed = mt_next(master) >> 1
                mt_seed_u64(&g.rng, gseed)
                for s in range(players):
                    seed_bot(&bs[s], kinds[s], gseed * 100 + s, worlds, depth)
                game_init(g, core.t, players, two_card, leaders, max_turns, trade)
                steps = 0
                while g.sp > 0 and not g.err:
                    n = gen(g)
                    if n == 0:
                        g.err = 5
                        break
                    s = decider(&g.stack[g.sp - 1])
                    a = g.acts[choose(g, &bs[s], scratch)]
                    apply_act(g, &a)
                    steps += 1
                err = g.err
            if err:
                raise RuntimeError(f"compiled core: internal limit hit (code {err})")
            out.append((
                gseed, g.winner, g.turn, steps,
                tuple(tuple(g.pl[s].wonder[i] for i in range(g.pl[s].nw)) for s in range(players)),
                tuple(g.pl[s].board for s in range(players)),
                tuple(g.pl[s].leader for s in range(players)),
                tuple(order),
            ))
    finally:
        free(g)
        free(scratch)
        free(bs)
        free(master)
    return out


def simulate_random(Core core, int players, int games, seed, bint two_card=False,
                    bint leaders=False, int max_turns=-1):
    """:func:`simulate` with a random bot on every seat."""
    return simulate(core, players, games, seed, ("random",) * players, two_card, leaders,
                    max_turns)
