# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# stays whole: one compiled module whose classes share the table scoring (Sums._score) and whose
# cdef helpers inline into each other; the event pass (EventPass) is Sums reading the rounds itself.
"""Compiled standings sums: score full tables (no virtual seat) and sum every player's rank
points, VP, coins, bids, games and exact share, as :func:`agon.tournament.standings.sum_tables`
does in Python (a property test compares the two on random events).

A table is a list of real seats, each ``(player, vp, coins, bid, left)``; the rules are those
of :func:`agon.tournament.scoring.full_table_contributions`: placing score VP (or VP - bid),
the ruleset's in-game tie-breakers (``bid-asc``, ``coins-desc``), shared rank points over a
common scale, share = placing / table total (1 / seats when the total is 0).  The share sums
are exact: a fraction per player with 128-bit integers, and Python integers for a player whose
sum would not fit.
"""

from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.stdlib cimport free, malloc
from libc.string cimport memset

cdef extern from *:
    """
    typedef __int128 agon_i128;
    static int agon_mul128(agon_i128 a, agon_i128 b, agon_i128 *r) {
        return __builtin_mul_overflow(a, b, r);
    }
    static int agon_add128(agon_i128 a, agon_i128 b, agon_i128 *r) {
        return __builtin_add_overflow(a, b, r);
    }
    static agon_i128 agon_gcd128(agon_i128 a, agon_i128 b) {
        if (a < 0) a = -a;
        if (b < 0) b = -b;
        while (b) { agon_i128 t = a % b; a = b; b = t; }
        return a;
    }
    /* gcd of a > 0, b > 0 (binary: shifts and subtractions, no division) */
    static long long agon_gcd64(long long a0, long long b0) {
        unsigned long long a = (unsigned long long)a0, b = (unsigned long long)b0;
        int shift = __builtin_ctzll(a | b);
        a >>= __builtin_ctzll(a);
        do {
            b >>= __builtin_ctzll(b);
            if (a > b) { unsigned long long t = b; b = a; a = t; }
            b -= a;
        } while (b);
        return (long long)(a << shift);
    }
    /* gcd of q > 0 (128 bits) and b > 0 (64 bits): one 128-bit remainder, then the binary gcd
       in 64 bits (Euclid in 128 bits took a 128-bit division per step) */
    static long long agon_gcd_q64(agon_i128 q, long long b) {
        unsigned long long r = (unsigned long long)(q % (agon_i128)b);
        return r == 0 ? b : agon_gcd64(b, (long long)r);
    }
    static int agon_mul64(long long a, long long b, long long *r) {
        return __builtin_mul_overflow(a, b, r);
    }
    static int agon_add64(long long a, long long b, long long *r) {
        return __builtin_add_overflow(a, b, r);
    }
    static long long agon_hi64(agon_i128 x) { return (long long)(x >> 64); }
    static unsigned long long agon_lo64(agon_i128 x) { return (unsigned long long)x; }
    static int agon_fits64(agon_i128 x) { return x >= (agon_i128)(-0x7fffffffffffffffLL - 1) && x <= (agon_i128)0x7fffffffffffffffLL; }
    """
    ctypedef struct agon_i128:
        pass
    bint agon_mul128(agon_i128 a, agon_i128 b, agon_i128 *r) nogil
    bint agon_add128(agon_i128 a, agon_i128 b, agon_i128 *r) nogil
    agon_i128 agon_gcd128(agon_i128 a, agon_i128 b) nogil
    long long agon_hi64(agon_i128 x) nogil
    unsigned long long agon_lo64(agon_i128 x) nogil
    bint agon_fits64(agon_i128 x) nogil
    long long agon_gcd64(long long a, long long b) nogil
    long long agon_gcd_q64(agon_i128 q, long long b) nogil
    bint agon_mul64(long long a, long long b, long long *r) nogil
    bint agon_add64(long long a, long long b, long long *r) nogil

cdef extern from *:
    """
    #define agon_from64(v) ((agon_i128)(v))
    #define agon_div128(a, b) ((a) / (b))
    #define agon_is_zero128(a) ((a) == 0)
    #define agon_to64(a) ((long long)(a))
    #define agon_to_double(a) ((double)(a))
    """
    agon_i128 agon_from64(long long v) nogil
    agon_i128 agon_div128(agon_i128 a, agon_i128 b) nogil
    bint agon_is_zero128(agon_i128 a) nogil
    long long agon_to64(agon_i128 a) nogil
    double agon_to_double(agon_i128 a) nogil

cdef enum:
    MAX_SEATS = 64
    MAX_KEYS = 3

#: The in-game tie-breakers the core knows (``real-before-virtual`` has no effect at a full table).
BREAKERS = ("bid-asc", "coins-desc")


cdef object _to_int(agon_i128 x):
    """A 128-bit integer as a Python int."""
    if agon_fits64(x):
        return agon_to64(x)
    return (int(agon_hi64(x)) << 64) | int(agon_lo64(x))


cdef class Sums:
    """Running sums per player (by index): rank points x scale, VP, coins, bids, games and the
    exact share (numerator over a common denominator)."""

    cdef Py_ssize_t n
    cdef dict index
    cdef bint by_bid
    cdef int n_breakers
    cdef int breakers[2]
    cdef long long points_scale
    cdef dict points_by_k
    cdef long long *pts
    cdef long long *vp
    cdef long long *coins
    cdef long long *bids
    cdef long long *games
    cdef agon_i128 *share_num
    cdef agon_i128 *share_den
    cdef dict big  # player index -> [numerator, denominator] as Python ints (128 bits overflowed)
    cdef char *is_big

    def __cinit__(self, dict index, bint by_bid, tuple breakers, dict points_by_k,
                  long long points_scale, *rest):
        cdef Py_ssize_t i
        self.n = len(index)
        self.index = index
        self.by_bid = by_bid
        self.points_scale = points_scale
        self.big = {}
        if len(breakers) > 2:
            raise ValueError("at most two in-game tie-breakers")
        self.n_breakers = 0
        for name in breakers:
            if name not in BREAKERS:
                raise ValueError(f"unknown in-game tie-breaker {name!r}")
            self.breakers[self.n_breakers] = BREAKERS.index(name)
            self.n_breakers += 1
        self.points_by_k = {}
        for k, points in points_by_k.items():
            self.points_by_k[int(k)] = tuple(int(p) for p in points)
        n = self.n if self.n > 0 else 1
        self.pts = <long long *> malloc(n * sizeof(long long))
        self.vp = <long long *> malloc(n * sizeof(long long))
        self.coins = <long long *> malloc(n * sizeof(long long))
        self.bids = <long long *> malloc(n * sizeof(long long))
        self.games = <long long *> malloc(n * sizeof(long long))
        self.share_num = <agon_i128 *> malloc(n * sizeof(agon_i128))
        self.share_den = <agon_i128 *> malloc(n * sizeof(agon_i128))
        self.is_big = <char *> malloc(n * sizeof(char))
        if (not self.is_big or not self.pts or not self.vp or not self.coins or not self.bids or not self.games
                or not self.share_num or not self.share_den):
            raise MemoryError()
        memset(self.pts, 0, n * sizeof(long long))
        memset(self.vp, 0, n * sizeof(long long))
        memset(self.coins, 0, n * sizeof(long long))
        memset(self.bids, 0, n * sizeof(long long))
        memset(self.games, 0, n * sizeof(long long))
        memset(self.is_big, 0, n * sizeof(char))
        for i in range(n):
            self.share_num[i] = agon_from64(0)
            self.share_den[i] = agon_from64(1)

    def __dealloc__(self):
        free(self.pts)
        free(self.vp)
        free(self.coins)
        free(self.bids)
        free(self.games)
        free(self.share_num)
        free(self.share_den)
        free(self.is_big)

    cdef int _add_share(self, Py_ssize_t i, long long a, long long b) except -1:
        """Add a / b (b != 0) to player i's share, exactly."""
        cdef agon_i128 q, g, q2, m1, m2, t1, t2, p2, bb, aa
        cdef long long q_, g_, q2_, m1_, m2_, t1_, t2_, p2_
        if b < 0:
            a = -a
            b = -b
        if self.is_big[i]:
            self._add_big(i, a, b)
            return 0
        if agon_fits64(self.share_den[i]) and agon_fits64(self.share_num[i]):
            # the common case in 64 bits (a 128-bit division costs several times more)
            q_ = agon_to64(self.share_den[i])
            g_ = agon_gcd64(q_, b)
            m1_ = b // g_
            m2_ = q_ // g_
            if not (agon_mul64(q_, m1_, &q2_) or agon_mul64(agon_to64(self.share_num[i]), m1_, &t1_)
                    or agon_mul64(a, m2_, &t2_) or agon_add64(t1_, t2_, &p2_)):
                self.share_num[i] = agon_from64(p2_)
                self.share_den[i] = agon_from64(q2_)
                return 0
        q = self.share_den[i]
        bb = agon_from64(b)
        aa = agon_from64(a)
        g_ = agon_gcd_q64(q, b)  # q > 0, b > 0
        g = agon_from64(g_)
        m1 = agon_from64(b // g_)  # q2 / q
        if agon_mul128(q, m1, &q2):
            self._overflow(i, a, b)
            return 0
        m2 = agon_div128(q, g)  # q2 / b
        if (agon_mul128(self.share_num[i], m1, &t1) or agon_mul128(aa, m2, &t2)
                or agon_add128(t1, t2, &p2)):
            self._overflow(i, a, b)
            return 0
        self.share_num[i] = p2
        self.share_den[i] = q2
        return 0

    cdef void _overflow(self, Py_ssize_t i, long long a, long long b) except *:
        self.big[i] = [_to_int(self.share_num[i]), _to_int(self.share_den[i])]
        self.is_big[i] = 1
        self._add_big(i, a, b)

    cdef void _add_big(self, Py_ssize_t i, object a, object b) except *:
        from math import gcd

        entry = self.big[i]
        p, q = entry
        g = gcd(q, b)
        q2 = q // g * b
        entry[0] = p * (q2 // q) + a * (q2 // b)
        entry[1] = q2

    def add(self, Py_ssize_t i, long long points, long long vp, long long coins, long long bid,
            long long num, long long den):
        """One game of player ``i`` scored elsewhere (a table with virtual seats)."""
        if i < 0 or i >= self.n:
            raise IndexError(i)
        if den == 0:
            raise ZeroDivisionError("share denominator 0")
        self.pts[i] += points
        self.vp[i] += vp
        self.coins[i] += coins
        self.bids[i] += bid
        self.games[i] += 1
        self._add_share(i, num, den)

    cdef int _score(self, Py_ssize_t k, tuple points, Py_ssize_t *who, long long *vps,
                    long long *coins, long long *bids) except -1:
        """Score one full table of ``k`` seats (``points``: the rank points of a table of k) and
        add every seat to the sums: who (player indices), VP, coins and bids per seat."""
        cdef long long placing[MAX_SEATS]
        cdef long long keys[MAX_SEATS][MAX_KEYS]
        cdef int order[MAX_SEATS]
        cdef long long pts_k[MAX_SEATS]
        cdef Py_ssize_t s, i, j, m, n, b, nk, p
        cdef bint same, less
        cdef long long total = 0, shared, scale = self.points_scale
        cdef int t, u, c
        nk = 1 + self.n_breakers
        for s in range(k):
            pts_k[s] = points[s]
        for s in range(k):
            placing[s] = vps[s] - bids[s] if self.by_bid else vps[s]
            total += placing[s]
            keys[s][0] = -placing[s]
            for b in range(self.n_breakers):
                keys[s][1 + b] = bids[s] if self.breakers[b] == 0 else -coins[s]
            # stable insertion sort by the key
            t = <int> s
            while t > 0:
                u = order[t - 1]
                less = False
                for c in range(nk):
                    if keys[s][c] != keys[u][c]:
                        less = keys[s][c] < keys[u][c]
                        break
                if not less:
                    break
                order[t] = u
                t -= 1
            order[t] = <int> s
        i = 0
        while i < k:
            j = i + 1
            while j < k:
                same = True
                for c in range(nk):
                    if keys[order[j]][c] != keys[order[i]][c]:
                        same = False
                        break
                if not same:
                    break
                j += 1
            shared = 0
            for m in range(i, j):
                shared += pts_k[m]
            shared *= scale // (j - i)
            for m in range(i, j):
                n = order[m]
                p = who[n]
                self.pts[p] += shared
                self.vp[p] += vps[n]
                self.coins[p] += coins[n]
                self.bids[p] += bids[n]
                self.games[p] += 1
                if total == 0:
                    self._add_share(p, 1, k)
                else:
                    self._add_share(p, placing[n], total)
            i = j
        return 0

    def add_tables(self, tables):
        """Score every table of ``tables`` (each a list of its real seats) whose size has rank
        points in ``points_by_k`` (tables without virtual seats) and add its seats to the sums;
        returns the other tables (not empty), in order, for the caller to score.

        Raises:
            KeyError: a seat's player has no index.
        """
        cdef long long vps[MAX_SEATS]
        cdef long long coins[MAX_SEATS]
        cdef long long bids[MAX_SEATS]
        cdef Py_ssize_t who[MAX_SEATS]
        cdef Py_ssize_t k, s
        cdef tuple seat
        cdef list seats
        cdef list rest = []
        for table in tables:
            seats = <list?> table
            k = len(seats)
            if k == 0:
                continue
            points = self.points_by_k.get(k) if k <= MAX_SEATS else None
            if points is None:
                rest.append(seats)
                continue
            for s in range(k):
                seat = <tuple?> seats[s]
                player = seat[0]
                found = self.index.get(player)
                if found is None:
                    raise KeyError(player)
                who[s] = <Py_ssize_t> found
                vps[s] = seat[1]
                coins[s] = seat[2]
                bids[s] = seat[3]
            self._score(k, <tuple> points, who, vps, coins, bids)
        return rest

    def result(self):
        """Per player index: (rank points x scale, share numerator, share denominator, VP,
        coins, bids, games); the share is 0/1 for a player without a game."""
        cdef Py_ssize_t i
        out = []
        for i in range(self.n):
            if self.is_big[i]:
                num, den = self.big[i]
            else:
                num = _to_int(self.share_num[i])
                den = _to_int(self.share_den[i])
            out.append(
                (self.pts[i], num, den, self.vp[i], self.coins[i], self.bids[i], self.games[i])
            )
        return out


from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.stdlib cimport realloc
from libc.string cimport memcmp, memcpy
from cpython.dict cimport PyDict_Next
from cpython.ref cimport PyObject
from hashlib import sha256
from operator import itemgetter

_PLAYER = itemgetter(0)


cdef object _MISSING = object()


cdef inline bint _in_range(object value, long long low, long long high):
    """``low <= value <= high`` for an exact int ``value`` (one beyond 64 bits is out)."""
    cdef int overflow = 0
    cdef long long v = PyLong_AsLongLongAndOverflow(value, &overflow)
    return not overflow and low <= v <= high


def round_seats(list tables_data, dict rank_of, sizes, long long vp_min, long long vp_max,
                long long coins_max, long long bid_max, table_keys, result_keys):
    """One round's seats as :func:`agon.tournament.bulk._seats` reads them: (every seat sorted
    by player, every table's seats), or ``None`` at the first thing of another shape.

    ``tables_data`` is the round's decoded ``tables``; ``rank_of`` gives each registered player
    his place in the sorted names (0, 1, …: the seats are sorted by it, without comparing
    names); ``sizes`` the allowed table sizes; the limits those of the ruleset; ``table_keys``
    and ``result_keys`` the keys the fast path reads.
    """
    cdef list tables = []
    cdef list table
    cdef dict td_, res_
    cdef Py_ssize_t present, n = len(rank_of), r, count = 0, i
    cdef object found
    if (not table_keys <= {"results", "auction"}
            or not result_keys <= {"player", "vp", "coins", "bid"}):
        raise ValueError("round_seats reads the keys results, auction, player, vp, coins, bid")
    cdef bint has_results = "results" in table_keys
    cdef bint has_auction = "auction" in table_keys
    cdef bint has_player = "player" in result_keys
    cdef bint has_vp = "vp" in result_keys
    cdef bint has_coins = "coins" in result_keys
    cdef bint has_bid = "bid" in result_keys
    cdef list slots = [None] * n  # by the player's rank: the seats in name order
    cdef tuple seat
    for td in tables_data:
        if type(td) is not dict:
            return None
        td_ = <dict> td
        # the table's keys are among table_keys: count those present
        present = (has_results and "results" in td_) + (has_auction and "auction" in td_)
        if present != len(td_):
            return None
        if "auction" in td_:
            auction = td_["auction"]
            if type(auction) is not list:
                return None
            for a in <list> auction:
                if type(a) is not str:
                    return None
        results = td_.get("results")
        if type(results) is not list or len(<list> results) not in sizes:
            return None
        table = []
        for res in <list> results:
            if type(res) is not dict:
                return None
            res_ = <dict> res
            player = res_.get("player", _MISSING)
            vp = res_.get("vp", _MISSING)
            coins = res_.get("coins", _MISSING)
            bid = res_.get("bid", _MISSING)
            # the seat's keys are among result_keys: count those present
            present = (
                (has_player and player is not _MISSING)
                + (has_vp and vp is not _MISSING)
                + (has_coins and coins is not _MISSING)
                + (has_bid and bid is not _MISSING)
            )
            if present != len(res_):
                return None
            if coins is _MISSING:
                coins = 0
            if bid is _MISSING:
                bid = 0
            if not (
                type(player) is str
                and type(vp) is int
                and type(coins) is int
                and type(bid) is int
                and _in_range(vp, vp_min, vp_max)
                and _in_range(coins, 0, coins_max)
                and _in_range(bid, 0, bid_max)
            ):
                return None
            found = rank_of.get(player)
            if found is None:
                return None  # not a registered player
            r = <Py_ssize_t> found
            if r < 0 or r >= n:
                raise ValueError("rank_of: ranks run 0 .. len(rank_of) - 1")
            if slots[r] is not None:
                return None  # seated twice in the round
            seat = (player, vp, coins, bid, False)
            slots[r] = seat
            count += 1
            table.append(seat)
        tables.append(table)
    cdef list entries = [None] * count
    i = 0
    for item in slots:
        if item is not None:
            entries[i] = item
            i += 1
    return entries, tables


cdef class _Buffer:
    cdef char *data
    cdef Py_ssize_t size, cap

    def __cinit__(self):
        self.cap = 1 << 16
        self.size = 0
        self.data = <char *> malloc(self.cap)
        if not self.data:
            raise MemoryError()

    def __dealloc__(self):
        free(self.data)

    cdef int grow(self, Py_ssize_t n) except -1:
        """Room for ``n`` more bytes."""
        cdef char *grown
        cdef Py_ssize_t cap
        if self.size + n > self.cap:
            cap = self.cap
            while self.size + n > cap:
                cap *= 2
            grown = <char *> realloc(self.data, cap)
            if not grown:
                raise MemoryError()
            self.data = grown
            self.cap = cap
        return 0

    cdef int put(self, const char *s, Py_ssize_t n) except -1:
        cdef Py_ssize_t k
        if self.size + n > self.cap:
            self.grow(n)
        if n <= 16:  # the usual cell or name: a call to memcpy costs more than the bytes
            for k in range(n):
                self.data[self.size + k] = s[k]
        else:
            memcpy(self.data + self.size, s, n)
        self.size += n
        return 0

    cdef int fill(self, char c, Py_ssize_t n) except -1:
        """``n`` times the byte ``c``."""
        if n <= 0:
            return 0
        if self.size + n > self.cap:
            self.grow(n)
        memset(self.data + self.size, c, n)
        self.size += n
        return 0

    cdef int put_ll(self, long long v) except -1:
        """The decimal digits of ``v`` (as ``%d`` writes them)."""
        cdef char digits[24]
        cdef unsigned long long u
        cdef int n = 0, a, b
        cdef char c
        if v < 0:
            u = <unsigned long long> 0 - <unsigned long long> v
        else:
            u = <unsigned long long> v
        if u == 0:
            digits[n] = 48
            n += 1
        while u:
            digits[n] = <char> (48 + u % 10)
            u //= 10
            n += 1
        if v < 0:
            digits[n] = 45
            n += 1
        a = 0
        b = n - 1
        while a < b:
            c = digits[a]
            digits[a] = digits[b]
            digits[b] = c
            a += 1
            b -= 1
        return self.put(digits, n)

    cdef int put_int(self, object value) except -1:
        cdef char digits[24]
        cdef long long v
        cdef unsigned long long u
        cdef int n = 0, neg = 0, a, b
        cdef char c
        cdef bytes text
        if type(value) is bool:
            return self.put(b"1" if value else b"0", 1)
        if type(value) is not int or not (-(1 << 62) < value < (1 << 62)):
            text = (b"%d" % value)
            return self.put(text, len(text))
        v = value
        if v < 0:
            neg = 1
            u = <unsigned long long> (-v)
        else:
            u = <unsigned long long> v
        if u == 0:
            digits[n] = 48
            n += 1
        while u:
            digits[n] = <char> (48 + u % 10)
            u //= 10
            n += 1
        if neg:
            digits[n] = 45
            n += 1
        a = 0
        b = n - 1
        while a < b:
            c = digits[a]
            digits[a] = digits[b]
            digits[b] = c
            a += 1
            b -= 1
        return self.put(digits, n)


def digest_bytes(object round_number, list entries):
    """The bytes :func:`agon.tournament.standings.digest_seats` hashes for one round: per seat
    ``"\\0{round}\\0{player}\\0{vp}\\0{coins}\\0{bid}\\0{left as 0/1}"``, UTF-8, in the order
    of ``entries`` (each (player, VP, coins, bid, left))."""
    cdef _Buffer out = _Buffer()
    cdef bytes head = ("\x00%s\x00" % (round_number,)).encode()
    cdef const char *text
    cdef Py_ssize_t n
    cdef tuple seat
    for item in entries:
        seat = <tuple?> item
        if len(seat) != 5:
            raise ValueError("a seat is (player, vp, coins, bid, left)")
        player = seat[0]
        out.put(head, len(head))
        if type(player) is str:
            text = PyUnicode_AsUTF8AndSize(player, &n)
            out.put(text, n)
        else:
            name = ("%s" % (player,)).encode()
            out.put(name, len(name))
        out.put(b"\x00", 1)
        out.put_int(seat[1])
        out.put(b"\x00", 1)
        out.put_int(seat[2])
        out.put(b"\x00", 1)
        out.put_int(seat[3])
        out.put(b"\x00", 1)
        out.put_int(seat[4])
    return PyBytes_FromStringAndSize(out.data, out.size)



cdef int _walk(object value, int depth, Py_ssize_t *nodes, Py_ssize_t max_nodes, int max_depth,
               long long limit) except -1:
    """1 if ``value`` and everything in it are within the caps, else 0."""
    cdef int overflow = 0
    cdef long long v
    nodes[0] += 1
    if nodes[0] > max_nodes or depth > max_depth:
        return 0
    kind = type(value)
    if kind is dict:
        for item in (<dict> value).values():
            if not _walk(item, depth + 1, nodes, max_nodes, max_depth, limit):
                return 0
    elif kind is list:
        for item in <list> value:
            if not _walk(item, depth + 1, nodes, max_nodes, max_depth, limit):
                return 0
    elif kind is int:
        v = PyLong_AsLongLongAndOverflow(value, &overflow)
        if overflow or not (-limit < v < limit):
            return 0
    return 1


def within_caps(data, Py_ssize_t max_nodes, int max_depth, long long limit):
    """What :func:`agon.tournament.safeload._within_caps` says of decoded JSON: at most
    ``max_nodes`` values, nested at most ``max_depth`` levels below the top, every integer
    strictly between ``-limit`` and ``limit``."""
    cdef Py_ssize_t nodes = 0
    return bool(_walk(data, 0, &nodes, max_nodes, max_depth, limit))


cdef inline bint _close(tuple a, tuple b) except -1:
    """:func:`agon.tournament.standings._close`: true unless the float keys prove the order."""
    cdef Py_ssize_t i, n = len(a)
    cdef double x, y, m
    if len(b) != n:
        raise ValueError("keys of different lengths")
    for i in range(n):
        xa = a[i]
        yb = b[i]
        if type(xa) is float and type(yb) is float:
            x = <double> xa
            y = <double> yb
            if x == y:
                continue
            m = 1.0
            if abs(x) > m:
                m = abs(x)
            if abs(y) > m:
                m = abs(y)
            return abs(x - y) <= 1e-9 * m
        if xa == yb:
            continue
        if isinstance(xa, float) or isinstance(yb, float):
            return abs(xa - yb) <= 1e-9 * max(1.0, abs(xa), abs(yb))
        return False
    return True


def close_runs(list keys, list order):
    """The runs ``order[i:j]`` (two rows or more) whose neighbours' keys are close, as
    :func:`agon.tournament.standings._close_runs` finds them."""
    cdef list runs = []
    cdef Py_ssize_t i = 0, j, n = len(order)
    while i < n:
        j = i + 1
        while j < n and _close(<tuple> keys[order[j - 1]], <tuple> keys[order[j]]):
            j += 1
        if j - i > 1:
            runs.append((i, j))
        i = j
    return runs


# --- The event file read straight from its bytes (issue 30) -----------------------------------
# json.loads builds a dict per seat (100,000 for 10,000 players x 10 rounds) only for the pass
# above to read them once; EventPass.read_rounds reads the seats from the JSON text itself.  The
# reader declines (None) everything but plain JSON of the common shape; what it accepts it reads
# as json.loads + agon.tournament.safeload would (a property test compares the two).

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.math cimport fabs, isfinite

cdef object _LONE_SURROGATE = None  # compiled at the first escaped string: `re` and `json`
# cost a command's start more than most files take to read, and plain names have no escape
#: A round's keys, each a bit: tables, wonders, guilds, sides, final.
_ROUND_FIELDS = {"tables": 0, "wonders": 1, "guilds": 2, "sides": 3, "final": 4}


class _Decline(Exception):
    """The byte reader does not read this document (the caller reads it the usual way)."""


cdef inline bint _digit(int c) noexcept:
    return 48 <= c <= 57


cdef class JsonScan:
    """A JSON document's bytes: :meth:`head` reads the top-level object but its ``rounds``
    (whose place it keeps for :meth:`EventPass.read_rounds`), counting values and depth as
    :func:`within_caps` does; ``None`` where it declines."""

    cdef bytes raw
    cdef const unsigned char *p
    cdef Py_ssize_t n, i
    cdef public Py_ssize_t nodes
    cdef public Py_ssize_t rounds_at
    #: where the rounds' value ends (just past it); whether :meth:`head` took it to end at the
    #: document's last ``]`` without reading it (``rounds_last``)
    cdef public Py_ssize_t rounds_end
    cdef public bint guessed
    cdef Py_ssize_t max_nodes
    cdef int max_depth

    def __cinit__(self, bytes raw, Py_ssize_t max_nodes, int max_depth):
        self.raw = raw
        self.p = <const unsigned char *> raw
        self.n = len(raw)
        self.i = 0
        self.nodes = 0
        self.rounds_at = -1
        self.rounds_end = -1
        self.guessed = False
        self.max_nodes = max_nodes
        self.max_depth = max_depth

    cdef inline void ws(self) noexcept:
        cdef unsigned char c
        while self.i < self.n:
            c = self.p[self.i]
            if c == 32 or c == 10 or c == 13 or c == 9:
                self.i += 1
            else:
                break

    cdef inline int peek(self) noexcept:
        """The next byte after white space, or -1 at the end."""
        self.ws()
        return self.p[self.i] if self.i < self.n else -1

    cdef int expect(self, int c) except -1:
        if self.peek() != c:
            raise _Decline()
        self.i += 1
        return 0

    cdef int count(self, int depth) except -1:
        self.nodes += 1
        if self.nodes > self.max_nodes or depth > self.max_depth:
            raise _Decline()
        return 0

    cdef Py_ssize_t string_end(self, bint *escaped) except -1:
        """At a string's opening quote: the place of its closing quote."""
        cdef Py_ssize_t i = self.i + 1
        cdef unsigned char c
        escaped[0] = False
        while True:
            if i >= self.n:
                raise _Decline()
            c = self.p[i]
            if c == 34:
                return i
            if c == 92:
                escaped[0] = True
                i += 2
                continue
            if c < 32:
                raise _Decline()
            i += 1

    cdef object string(self):
        """A string at the next place (after white space)."""
        cdef bint escaped
        cdef Py_ssize_t start, end
        if self.peek() != 34:
            raise _Decline()
        end = self.string_end(&escaped)
        start = self.i + 1
        self.i = end + 1
        if not escaped:
            try:
                return PyUnicode_DecodeUTF8(<const char *> self.p + start, end - start, "strict")
            except UnicodeDecodeError:
                raise _Decline()
        global _LONE_SURROGATE
        import json as _json
        try:
            text = _json.loads(self.raw[start - 1:end + 1])
        except ValueError:
            raise _Decline()
        if _LONE_SURROGATE is None:
            import re as _re

            _LONE_SURROGATE = _re.compile("[\ud800-\udfff]")
        if _LONE_SURROGATE.search(text):
            raise _Decline()
        return text

    cdef int integer(self, long long *out) except -1:
        """An integer of at most 18 digits at the next place (a float or more digits decline)."""
        cdef Py_ssize_t i, digits = 0
        cdef bint neg = False
        cdef long long v = 0
        if self.peek() == 45:
            neg = True
            self.i += 1
        i = self.i
        if i >= self.n or not _digit(self.p[i]):
            raise _Decline()
        if self.p[i] == 48:
            i += 1
            digits = 1
        else:
            while i < self.n and _digit(self.p[i]):
                v = v * 10 + (self.p[i] - 48) if digits < 18 else v
                digits += 1
                i += 1
        if digits > 18:
            raise _Decline()
        if i < self.n and (self.p[i] == 46 or self.p[i] == 101 or self.p[i] == 69):
            raise _Decline()  # a float
        self.i = i
        out[0] = -v if neg else v
        return 0

    cdef object number(self):
        """A number at the next place, as json.loads reads it (integers of at most 18 digits,
        finite floats)."""
        cdef Py_ssize_t start, i
        cdef long long v
        cdef double f
        self.ws()
        start = self.i
        i = start
        if i < self.n and self.p[i] == 45:
            i += 1
        if i >= self.n or not _digit(self.p[i]):
            raise _Decline()
        if self.p[i] == 48:
            i += 1
        else:
            while i < self.n and _digit(self.p[i]):
                i += 1
        if i < self.n and (self.p[i] == 46 or self.p[i] == 101 or self.p[i] == 69):
            if self.p[i] == 46:
                i += 1
                if i >= self.n or not _digit(self.p[i]):
                    raise _Decline()
                while i < self.n and _digit(self.p[i]):
                    i += 1
            if i < self.n and (self.p[i] == 101 or self.p[i] == 69):
                i += 1
                if i < self.n and (self.p[i] == 43 or self.p[i] == 45):
                    i += 1
                if i >= self.n or not _digit(self.p[i]):
                    raise _Decline()
                while i < self.n and _digit(self.p[i]):
                    i += 1
            self.i = i
            f = float(self.raw[start:i])
            if not isfinite(f):
                raise _Decline()
            return f
        self.integer(&v)
        return v

    cdef int literal(self, const char *word, Py_ssize_t size) except -1:
        cdef Py_ssize_t k
        if self.i + size > self.n:
            raise _Decline()
        for k in range(size):
            if self.p[self.i + k] != <unsigned char> word[k]:
                raise _Decline()
        self.i += size
        return 0

    cdef object value(self, int depth):
        """Any JSON value at the next place, counted with everything in it."""
        cdef int c = self.peek()
        self.count(depth)
        if c == 123:  # {
            self.i += 1
            obj = {}
            if self.peek() == 125:
                self.i += 1
                return obj
            while True:
                key = self.string()
                self.expect(58)
                obj[key] = self.value(depth + 1)
                c = self.peek()
                self.i += 1
                if c == 125:
                    return obj
                if c != 44:
                    raise _Decline()
        if c == 91:  # [
            self.i += 1
            items = []
            if self.peek() == 93:
                self.i += 1
                return items
            while True:
                items.append(self.value(depth + 1))
                c = self.peek()
                self.i += 1
                if c == 93:
                    return items
                if c != 44:
                    raise _Decline()
        if c == 34:
            return self.string()
        if c == 45 or _digit(c):
            return self.number()
        if c == 116:
            self.literal(b"true", 4)
            return True
        if c == 102:
            self.literal(b"false", 5)
            return False
        if c == 110:
            self.literal(b"null", 4)
            return None
        raise _Decline()

    cdef int skip(self) except -1:
        """Past one array or object (not checked: :meth:`EventPass.read_rounds` reads it);
        anything else declines."""
        cdef Py_ssize_t depth = 0, i
        cdef unsigned char c
        if self.peek() != 91 and self.peek() != 123:
            raise _Decline()
        i = self.i
        while i < self.n:
            c = self.p[i]
            i += 1
            if c == 34:  # a string: to its closing quote, past escapes
                while i < self.n and self.p[i] != 34:
                    i += 2 if self.p[i] == 92 else 1
                i += 1
            elif c == 91 or c == 123:
                depth += 1
            elif c == 93 or c == 125:
                depth -= 1
                if depth == 0:
                    self.i = i
                    return 0
        raise _Decline()

    cdef Py_ssize_t _last_array_end(self) noexcept:
        """Just past the document's last ``]`` if only white space and the top-level object's
        closing ``}`` follow it, else -1."""
        cdef Py_ssize_t j = self.n - 1
        while j >= 0 and (self.p[j] == 32 or self.p[j] == 10 or self.p[j] == 13 or self.p[j] == 9):
            j -= 1
        if j < 0 or self.p[j] != 125:
            return -1
        j -= 1
        while j >= 0 and (self.p[j] == 32 or self.p[j] == 10 or self.p[j] == 13 or self.p[j] == 9):
            j -= 1
        if j < 0 or self.p[j] != 93:
            return -1
        return j + 1

    def head(self, bint rounds_last=False):
        """The top-level object with every field but ``rounds`` (whose place :attr:`rounds_at`
        keeps, -1 without one), or ``None``: not an object, not plain JSON, beyond the caps.

        With ``rounds_last``, where the document ends in ``]`` and ``}``, the rounds are taken
        to be the last field, up to that ``]``, without walking them (:attr:`guessed`; a tenth
        of the time a big file takes): :meth:`EventPass.read_rounds` then declines unless they
        end exactly there, and the caller reads the head again without ``rounds_last`` (a
        guessed head may lack the fields after the rounds)."""
        cdef int c
        cdef Py_ssize_t end
        try:
            if self.peek() != 123:
                raise _Decline()
            self.count(0)
            self.i += 1
            obj = {}
            if self.peek() != 125:
                while True:
                    key = self.string()
                    self.expect(58)
                    if key == "rounds":
                        if self.rounds_at >= 0:
                            raise _Decline()
                        self.ws()
                        self.rounds_at = self.i
                        end = self._last_array_end() if rounds_last else -1
                        if end > self.i:
                            self.i = end
                            self.guessed = True
                        else:
                            self.skip()
                        self.rounds_end = self.i
                    else:
                        obj[key] = self.value(1)
                    c = self.peek()
                    self.i += 1
                    if c == 125:
                        break
                    if c != 44:
                        raise _Decline()
            else:
                self.i += 1
            if self.peek() != -1:
                raise _Decline()  # more after the document
            return obj
        except _Decline:
            return None


cdef inline bint _same(const char *a, const unsigned char *b, Py_ssize_t n) noexcept:
    """The ``n`` bytes at ``a`` and ``b`` are equal (a name is a few bytes: no call to memcmp)."""
    cdef Py_ssize_t k
    for k in range(n):
        if <unsigned char> a[k] != b[k]:
            return False
    return True


cdef inline unsigned long long _fnv(const unsigned char *s, Py_ssize_t n) noexcept:
    cdef unsigned long long h = 1469598103934665603ULL
    cdef Py_ssize_t k
    for k in range(n):
        h ^= s[k]
        h *= 1099511628211ULL
    # murmur3's finalizer: similar names ("P00017", "P00018") spread over the low bits
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


cdef extern from *:
    """
    /* sign of a/b - c/d for b, d > 0, exactly: Euclid on the continued fractions (no product
       that could overflow) */
    static int agon_cmp_frac(agon_i128 a, agon_i128 b, agon_i128 c, agon_i128 d) {
        int sign = 1;
        long long x, y;
        if (agon_fits64(a) && agon_fits64(b) && agon_fits64(c) && agon_fits64(d)
                && !__builtin_mul_overflow((long long)a, (long long)d, &x)
                && !__builtin_mul_overflow((long long)c, (long long)b, &y))
            return x < y ? -1 : (x > y ? 1 : 0);  /* the common case: the cross products fit */
        for (;;) {
            agon_i128 q1 = a / b, q2 = c / d, r1, r2, t;
            if (a % b != 0 && a < 0) q1 -= 1;   /* floor */
            if (c % d != 0 && c < 0) q2 -= 1;
            if (q1 != q2) return q1 < q2 ? -sign : sign;
            r1 = a - q1 * b;
            r2 = c - q2 * d;
            if (r1 == 0 && r2 == 0) return 0;
            if (r1 == 0) return -sign;
            if (r2 == 0) return sign;
            /* r1/b - r2/d has the sign of d/r2 - b/r1 */
            t = b; a = d; b = r2; c = t; d = r1;
        }
    }
    """
    int agon_cmp_frac(agon_i128 a, agon_i128 b, agon_i128 c, agon_i128 d) nogil

#: The standings criteria the event pass orders by (the lot last, where every chain has it).
PASS_CRITERIA = ("points", "share", "vp", "coins", "pp", "lot")

cdef enum:
    C_POINTS = 0
    C_SHARE = 1
    C_VP = 2
    C_COINS = 3
    C_PP = 4
    C_LOT = 5


# --- The printed table, written from the pass's sums (issue 30) ---

from cpython.unicode cimport PyUnicode_GET_LENGTH, Py_UNICODE_ISSPACE
from libc.string cimport strlen

cdef extern from "Python.h":
    char *PyOS_double_to_string(double val, char format_code, int precision, int flags,
                                int *ptype) except NULL
    void PyMem_Free(void *p)


cdef class _Cells:
    """One column of the printed table: its cells' UTF-8 one after another, each cell's end and
    width in characters (as ``len`` counts them), the widest (the header's at least)."""

    cdef _Buffer text
    cdef Py_ssize_t *ends
    cdef Py_ssize_t *chars
    cdef Py_ssize_t count, widest
    cdef bint right

    def __cinit__(self, Py_ssize_t n, bint right, Py_ssize_t header_width):
        self.text = _Buffer()
        self.ends = <Py_ssize_t *> malloc((n if n > 0 else 1) * sizeof(Py_ssize_t))
        self.chars = <Py_ssize_t *> malloc((n if n > 0 else 1) * sizeof(Py_ssize_t))
        if not self.ends or not self.chars:
            raise MemoryError()
        self.count = 0
        self.widest = header_width
        self.right = right

    def __dealloc__(self):
        free(self.ends)
        free(self.chars)

    cdef int _close(self, Py_ssize_t chars) noexcept:
        self.ends[self.count] = self.text.size
        self.chars[self.count] = chars
        if chars > self.widest:
            self.widest = chars
        self.count += 1
        return 0

    cdef int add(self, const char *s, Py_ssize_t size, Py_ssize_t chars) except -1:
        self.text.put(s, size)
        return self._close(chars)

    cdef int add_ll(self, long long v) except -1:
        cdef Py_ssize_t start = self.text.size
        self.text.put_ll(v)
        return self._close(self.text.size - start)

    cdef int add_fixed(self, double x, int digits) except -1:
        """``format(x, f".{digits}f")``: Python's own float formatting."""
        cdef char *s = PyOS_double_to_string(x, b'f', digits, 0, NULL)
        cdef Py_ssize_t size = strlen(s)
        try:
            self.text.put(s, size)
        finally:
            PyMem_Free(s)
        return self._close(size)

    cdef int add_points(self, long long p, long long scale) except -1:
        """Rank points kept times ``scale`` as ``_point_texts`` writes them: the integer where
        exact, else two decimals without trailing zeros (|p|, scale at most 2**53: ``p / scale``
        is then the double quotient, as Python's)."""
        cdef char *s
        cdef Py_ssize_t size, start
        if p % scale == 0:
            return self.add_ll(p // scale)
        s = PyOS_double_to_string(<double> p / <double> scale, b'f', 2, 0, NULL)
        size = strlen(s)
        try:
            while size > 0 and s[size - 1] == 48:  # rstrip("0")
                size -= 1
            while size > 0 and s[size - 1] == 46:  # rstrip(".")
                size -= 1
            self.text.put(s, size)
        finally:
            PyMem_Free(s)
        return self._close(size)


cdef int _line(_Buffer out, list cols, Py_ssize_t row, list header) except -1:
    """A newline, then row ``row`` of the columns (``-1``: the ``header``, ``-2``: the rule),
    each cell padded to its column's width, two spaces between, no spaces at the end."""
    cdef _Cells col
    cdef Py_ssize_t c, start, end, chars, pad
    cdef const char *text
    cdef Py_ssize_t size
    out.put(b"\n", 1)
    for c in range(len(cols)):
        col = <_Cells> cols[c]
        if c > 0:
            out.put(b"  ", 2)
        if row == -2:
            out.fill(45, col.widest)
            continue
        if row == -1:
            text = PyUnicode_AsUTF8AndSize(header[c], &size)
            chars = size
        else:
            start = col.ends[row - 1] if row > 0 else 0
            end = col.ends[row]
            text = col.text.data + start
            size = end - start
            chars = col.chars[row]
        pad = col.widest - chars
        if col.right:
            out.fill(32, pad)
            out.put(text, size)
        else:
            out.put(text, size)
            out.fill(32, pad)
    while out.size > 0 and out.data[out.size - 1] == 32:  # rstrip(): only padding is a space
        out.size -= 1
    return 0



cdef class EventPass(Sums):
    """The standings of a decoded event document in one pass, as
    :func:`agon.tournament.bulk.quick_standings` computes them: :meth:`add_round` reads one
    round's decoded tables (the shape and limits the one-pass reader accepts, or ``None``),
    scores its full tables into the sums and gives the bytes of its digest;
    :meth:`order` places the players by the standings chain exactly (fractions compared as
    fractions, the lot drawn only where everything before it is equal, then the name).

    ``names``: the players in the event's order (index i is ``names[i]``); ``name_order``: the
    indices in the order of the names (sorted).
    """

    cdef list names
    cdef Py_ssize_t *name_rank
    cdef Py_ssize_t *by_name
    cdef long long *r_vp
    cdef long long *r_coins
    cdef long long *r_bid
    cdef char *seated
    cdef object sizes
    cdef long long vp_min, vp_max, coins_max, bid_max
    cdef object k_player, k_vp, k_coins, k_bid
    # the byte reader's: the names' UTF-8 in a hash table, one round's seats and tables
    cdef const char **name_ptr
    cdef Py_ssize_t *name_len
    cdef unsigned long long *slots  # (hash >> 32) << 32 | index + 1; 0: empty
    cdef char *arena  # every name's UTF-8, in name order (the digest reads it front to back)
    cdef Py_ssize_t *name_chars  # each name's length in characters (the table's widths)
    cdef Py_ssize_t n_slots
    cdef Py_ssize_t *s_who
    cdef long long *s_vp
    cdef long long *s_coins
    cdef long long *s_bid
    cdef Py_ssize_t *t_start
    cdef Py_ssize_t n_seats, n_tables
    cdef public Py_ssize_t max_tables
    cdef double *share_approx  # while :meth:`order` runs: each share as a double (none big)

    cdef bint _learn_key(self, object key) except -1:
        """Take ``key`` as the object the document uses for a seat's key; False if it is none of
        player, vp, coins and bid."""
        if type(key) is not str:
            return False
        if key == "player":
            self.k_player = key
        elif key == "vp":
            self.k_vp = key
        elif key == "coins":
            self.k_coins = key
        elif key == "bid":
            self.k_bid = key
        else:
            return False
        return True

    def __init__(self, dict index, bint by_bid, tuple breakers, dict points_by_k,
                 long long points_scale, list names, list name_order, sizes, long long vp_min,
                 long long vp_max, long long coins_max, long long bid_max):
        cdef Py_ssize_t i, j, m, n = self.n
        if len(names) != n or len(name_order) != n:
            raise ValueError("names, name_order and index differ in length")
        self.names = names
        self.sizes = sizes
        self.k_player, self.k_vp, self.k_coins, self.k_bid = "player", "vp", "coins", "bid"
        self.vp_min, self.vp_max, self.coins_max, self.bid_max = vp_min, vp_max, coins_max, bid_max
        m = n if n > 0 else 1
        self.name_rank = <Py_ssize_t *> malloc(m * sizeof(Py_ssize_t))
        self.by_name = <Py_ssize_t *> malloc(m * sizeof(Py_ssize_t))
        self.r_vp = <long long *> malloc(m * sizeof(long long))
        self.r_coins = <long long *> malloc(m * sizeof(long long))
        self.r_bid = <long long *> malloc(m * sizeof(long long))
        self.seated = <char *> malloc(m)
        if (not self.name_rank or not self.by_name or not self.r_vp or not self.r_coins
                or not self.r_bid or not self.seated):
            raise MemoryError()
        for i in range(n):
            self.name_rank[i] = -1
        for i in range(n):
            j = <Py_ssize_t> name_order[i]
            if j < 0 or j >= n or self.name_rank[j] != -1:
                raise ValueError("name_order is not an order of the indices")
            self.by_name[i] = j
            self.name_rank[j] = i
        for i in range(n):
            if self.index.get(names[i]) != i:
                raise ValueError("index does not give each name its place in names")

    def __dealloc__(self):
        free(self.name_ptr)
        free(self.name_len)
        free(self.slots)
        free(self.arena)
        free(self.name_chars)
        free(self.s_who)
        free(self.s_vp)
        free(self.s_coins)
        free(self.s_bid)
        free(self.t_start)
        free(self.name_rank)
        free(self.by_name)
        free(self.r_vp)
        free(self.r_coins)
        free(self.r_bid)
        free(self.seated)

    def add_round(self, list tables_data, object round_number, bint counts):
        """Read one round's decoded ``tables`` as :func:`round_seats` reads them (``None`` at
        the first thing of another shape, or at a table size without rank points for a full
        table); with ``counts`` (not a final) score its tables into the sums. Returns the bytes
        of the round's digest (:func:`digest_bytes` of its seats in name order; empty for a
        round that does not count)."""
        cdef long long vps[MAX_SEATS]
        cdef long long coins_[MAX_SEATS]
        cdef long long bids[MAX_SEATS]
        cdef Py_ssize_t who[MAX_SEATS]
        cdef Py_ssize_t k, s, i, j, n = self.n
        cdef dict td_
        cdef list results_
        cdef int present, overflow = 0
        cdef Py_ssize_t pos
        cdef PyObject *pkey
        cdef PyObject *pvalue
        cdef long long vp_, c_, b_
        memset(self.seated, 0, n if n > 0 else 1)
        for td in tables_data:
            if type(td) is not dict:
                return None
            td_ = <dict> td
            present = ("results" in td_) + ("auction" in td_)
            if present != len(td_):
                return None
            if "auction" in td_:
                auction = td_["auction"]
                if type(auction) is not list:
                    return None
                for a in <list> auction:
                    if type(a) is not str:
                        return None
            results = td_.get("results")
            if type(results) is not list or len(<list> results) not in self.sizes:
                return None
            results_ = <list> results
            k = len(results_)
            points = self.points_by_k.get(k) if k <= MAX_SEATS else None
            if points is None:
                return None  # virtual seats: the Python scoring's
            for s in range(k):
                res = results_[s]
                if type(res) is not dict:
                    return None
                # the seat's entries, each key matched by identity with the document's own
                # key objects (a JSON decoder shares one object per key): no hashing, no lookup
                pos = 0
                player = vp = None
                vp_ = c_ = b_ = 0
                while PyDict_Next(res, &pos, &pkey, &pvalue):
                    if pkey == <PyObject *> self.k_player:
                        player = <object> pvalue
                    elif pkey == <PyObject *> self.k_vp:
                        vp = <object> pvalue
                        if type(vp) is not int:
                            return None
                        vp_ = PyLong_AsLongLongAndOverflow(vp, &overflow)
                        if overflow or not self.vp_min <= vp_ <= self.vp_max:
                            return None
                    elif pkey == <PyObject *> self.k_coins:
                        value = <object> pvalue
                        if type(value) is not int:
                            return None
                        c_ = PyLong_AsLongLongAndOverflow(value, &overflow)
                        if overflow or not 0 <= c_ <= self.coins_max:
                            return None
                    elif pkey == <PyObject *> self.k_bid:
                        value = <object> pvalue
                        if type(value) is not int:
                            return None
                        b_ = PyLong_AsLongLongAndOverflow(value, &overflow)
                        if overflow or not 0 <= b_ <= self.bid_max:
                            return None
                    elif not self._learn_key(<object> pkey):
                        return None  # a key the fast path does not read
                    else:
                        pos = 0  # a new key object for a known key: read the seat again
                        player = vp = None
                        vp_ = c_ = b_ = 0
                if type(player) is not str or vp is None:
                    return None
                found = self.index.get(player)
                if found is None:
                    return None  # not a registered player
                i = <Py_ssize_t> found
                if self.seated[i]:
                    return None  # seated twice in the round
                self.seated[i] = 1
                who[s] = i
                vps[s] = vp_
                coins_[s] = c_
                bids[s] = b_
                self.r_vp[i] = vps[s]
                self.r_coins[i] = coins_[s]
                self.r_bid[i] = bids[s]
            if counts:
                self._score(k, <tuple> points, who, vps, coins_, bids)
        if not counts:
            return b""
        return self._digest(round_number)

    cdef bytes _digest(self, object round_number):
        """The digest bytes of the round just read (:func:`digest_bytes` of its seats in name
        order)."""
        cdef _Buffer out = _Buffer()
        cdef bytes head = ("\x00%s\x00" % (round_number,)).encode()
        cdef const char *text
        cdef Py_ssize_t size, i, j
        for j in range(self.n):
            i = self.by_name[j]
            if not self.seated[i]:
                continue
            out.put(head, len(head))
            if self.name_ptr != NULL:
                out.put(self.name_ptr[i], self.name_len[i])
            else:
                text = PyUnicode_AsUTF8AndSize(self.names[i], &size)
                out.put(text, size)
            out.put(b"\x00", 1)
            out.put_ll(self.r_vp[i])
            out.put(b"\x00", 1)
            out.put_ll(self.r_coins[i])
            out.put(b"\x00", 1)
            out.put_ll(self.r_bid[i])
            out.put(b"\x00", 1)
            out.put(b"0", 1)
        return PyBytes_FromStringAndSize(out.data, out.size)

    cdef int _byte_tables(self) except -1:
        """The names' UTF-8 side by side in one block and in an open-addressing hash table, and
        one round's buffers."""
        cdef Py_ssize_t i, j, m = self.n if self.n > 0 else 1, size, total = 0
        cdef const char *text
        cdef unsigned long long h, at
        if self.slots != NULL:
            return 0
        self.n_slots = 16
        while self.n_slots < 2 * m:
            self.n_slots *= 2
        self.slots = <unsigned long long *> malloc(self.n_slots * sizeof(unsigned long long))
        self.name_ptr = <const char **> malloc(m * sizeof(char *))
        self.name_len = <Py_ssize_t *> malloc(m * sizeof(Py_ssize_t))
        self.name_chars = <Py_ssize_t *> malloc(m * sizeof(Py_ssize_t))
        self.s_who = <Py_ssize_t *> malloc(m * sizeof(Py_ssize_t))
        self.s_vp = <long long *> malloc(m * sizeof(long long))
        self.s_coins = <long long *> malloc(m * sizeof(long long))
        self.s_bid = <long long *> malloc(m * sizeof(long long))
        self.t_start = <Py_ssize_t *> malloc((m + 1) * sizeof(Py_ssize_t))
        if (not self.slots or not self.name_ptr or not self.name_len or not self.s_who
                or not self.s_vp or not self.s_coins or not self.s_bid or not self.t_start
                or not self.name_chars):
            raise MemoryError()
        if self.n >= 0xFFFFFFFF:
            raise ValueError("too many players for the byte reader")
        memset(self.slots, 0, self.n_slots * sizeof(unsigned long long))
        for i in range(self.n):
            PyUnicode_AsUTF8AndSize(self.names[i], &size)
            total += size
        self.arena = <char *> malloc(total if total > 0 else 1)
        if not self.arena:
            raise MemoryError()
        total = 0
        for j in range(self.n):
            i = self.by_name[j]
            text = PyUnicode_AsUTF8AndSize(self.names[i], &size)
            memcpy(self.arena + total, text, size)
            self.name_ptr[i] = self.arena + total
            self.name_len[i] = size
            self.name_chars[i] = PyUnicode_GET_LENGTH(self.names[i])
            total += size
            h = _fnv(<const unsigned char *> text, size)
            at = h & <unsigned long long> (self.n_slots - 1)
            while self.slots[at] != 0:
                at = (at + 1) & <unsigned long long> (self.n_slots - 1)
            self.slots[at] = ((h >> 32) << 32) | <unsigned long long> (i + 1)
        return 0

    cdef Py_ssize_t _player_at(self, JsonScan scan) except -2:
        """The index of the registered player whose name is the string at the next place."""
        cdef bint escaped
        cdef Py_ssize_t start, end, size, i
        cdef unsigned long long h, at, slot
        if scan.peek() != 34:
            raise _Decline()
        end = scan.string_end(&escaped)
        start = scan.i + 1
        if escaped:
            name = scan.string()
            found = self.index.get(name)
            if found is None:
                raise _Decline()
            return <Py_ssize_t> found
        scan.i = end + 1
        size = end - start
        h = _fnv(scan.p + start, size)
        at = h & <unsigned long long> (self.n_slots - 1)
        while True:
            slot = self.slots[at]
            if slot == 0:
                raise _Decline()  # not a registered player (or not UTF-8)
            if (slot >> 32) == (h >> 32):
                i = <Py_ssize_t> (slot & 0xFFFFFFFFULL) - 1
                if self.name_len[i] == size and _same(self.name_ptr[i], scan.p + start, size):
                    return i
            at = (at + 1) & <unsigned long long> (self.n_slots - 1)

    cdef int _key(self, JsonScan scan) except -1:
        """A seat's key at the next place: 0 player, 1 vp, 2 coins, 3 bid (others decline)."""
        cdef bint escaped
        cdef Py_ssize_t start, end, size
        if scan.peek() != 34:
            raise _Decline()
        end = scan.string_end(&escaped)
        start = scan.i + 1
        size = end - start
        scan.i = end + 1
        if escaped:
            raise _Decline()
        if size == 6 and _same(b"player", scan.p + start, 6):
            return 0
        if size == 2 and _same(b"vp", scan.p + start, 2):
            return 1
        if size == 5 and _same(b"coins", scan.p + start, 5):
            return 2
        if size == 3 and _same(b"bid", scan.p + start, 3):
            return 3
        raise _Decline()

    cdef int _seat(self, JsonScan scan) except -1:
        """One seat's object into the round's buffers."""
        cdef int c, key, seen = 0
        cdef Py_ssize_t who = -1
        cdef long long v, vp = 0, coins = 0, bid = 0
        scan.expect(123)
        scan.count(6)
        if scan.peek() == 125:
            raise _Decline()
        while True:
            key = self._key(scan)
            if seen & (1 << key):
                raise _Decline()  # a key twice
            seen |= 1 << key
            scan.expect(58)
            scan.count(7)
            if key == 0:
                who = self._player_at(scan)
            else:
                scan.integer(&v)
                if key == 1:
                    if not self.vp_min <= v <= self.vp_max:
                        raise _Decline()
                    vp = v
                elif key == 2:
                    if not 0 <= v <= self.coins_max:
                        raise _Decline()
                    coins = v
                else:
                    if not 0 <= v <= self.bid_max:
                        raise _Decline()
                    bid = v
            c = scan.peek()
            scan.i += 1
            if c == 125:
                break
            if c != 44:
                raise _Decline()
        if not (seen & 1) or not (seen & 2) or self.seated[who]:
            raise _Decline()  # no player, no VP, or seated twice in the round
        self.seated[who] = 1
        self.r_vp[who] = vp
        self.r_coins[who] = coins
        self.r_bid[who] = bid
        self.s_who[self.n_seats] = who
        self.s_vp[self.n_seats] = vp
        self.s_coins[self.n_seats] = coins
        self.s_bid[self.n_seats] = bid
        self.n_seats += 1
        return 0

    cdef int _tables(self, JsonScan scan) except -1:
        """A round's ``tables`` into the round's buffers, each table checked as add_round does."""
        cdef int c
        cdef bint results, auction
        cdef Py_ssize_t k
        scan.expect(91)
        scan.count(3)
        if scan.peek() == 93:
            scan.i += 1
            return 0
        while True:
            scan.expect(123)
            scan.count(4)
            results = auction = False
            if scan.peek() == 125:
                raise _Decline()
            while True:
                key = scan.string()
                scan.expect(58)
                if key == "results" and not results:
                    results = True
                    self.t_start[self.n_tables] = self.n_seats
                    scan.expect(91)
                    scan.count(5)
                    if scan.peek() == 93:
                        raise _Decline()
                    while True:
                        self._seat(scan)
                        c = scan.peek()
                        scan.i += 1
                        if c == 93:
                            break
                        if c != 44:
                            raise _Decline()
                    k = self.n_seats - self.t_start[self.n_tables]
                    if k > MAX_SEATS or k not in self.sizes or self.points_by_k.get(k) is None:
                        raise _Decline()
                elif key == "auction" and not auction:
                    auction = True
                    actions = scan.value(5)
                    if type(actions) is not list:
                        raise _Decline()
                    for a in <list> actions:
                        if type(a) is not str:
                            raise _Decline()
                else:
                    raise _Decline()
                c = scan.peek()
                scan.i += 1
                if c == 125:
                    break
                if c != 44:
                    raise _Decline()
            if not results:
                raise _Decline()
            self.n_tables += 1
            c = scan.peek()
            scan.i += 1
            if c == 93:
                return 0
            if c != 44:
                raise _Decline()

    cdef bytes _round(self, JsonScan scan, object number):
        """One round's object: its seats scored (not a final's) and its digest bytes."""
        cdef int c, seen = 0, bit
        cdef bint final = False
        cdef Py_ssize_t t, k, off
        scan.expect(123)
        scan.count(2)
        memset(self.seated, 0, self.n if self.n > 0 else 1)
        self.n_seats = 0
        self.n_tables = 0
        if scan.peek() == 125:
            raise _Decline()
        while True:
            key = scan.string()
            scan.expect(58)
            bit = _ROUND_FIELDS.get(key, -1)
            if bit < 0 or seen & (1 << bit):
                raise _Decline()
            seen |= 1 << bit
            if bit == 0:
                self._tables(scan)
            else:
                value = scan.value(3)
                if bit <= 2:  # wonders, guilds: lists of names
                    if type(value) is not list:
                        raise _Decline()
                    for item in <list> value:
                        if type(item) is not str:
                            raise _Decline()
                elif bit == 3:  # sides
                    if type(value) is not dict:
                        raise _Decline()
                    for item in (<dict> value).values():
                        if not (item == "A" or item == "B"):
                            raise _Decline()
                else:  # final
                    if type(value) is not bool:
                        raise _Decline()
                    final = value
            c = scan.peek()
            scan.i += 1
            if c == 125:
                break
            if c != 44:
                raise _Decline()
        if not (seen & 1) or self.n_tables > self.max_tables:
            raise _Decline()
        if final:
            return b""
        self.t_start[self.n_tables] = self.n_seats
        for t in range(self.n_tables):
            off = self.t_start[t]
            k = self.t_start[t + 1] - off
            self._score(k, <tuple> self.points_by_k[k], self.s_who + off, self.s_vp + off,
                        self.s_coins + off, self.s_bid + off)
        return self._digest(number)

    def read_rounds(self, JsonScan scan):
        """The rounds of the document ``scan`` read the head of (:meth:`JsonScan.head`), read
        from its bytes as :meth:`add_round` reads decoded rounds: per round the bytes of its
        digest (empty for a final), or ``None`` where the byte reader declines."""
        cdef int c
        cdef Py_ssize_t r = 0
        digests = []
        if scan.rounds_at < 0:
            return digests
        self._byte_tables()
        try:
            scan.i = scan.rounds_at
            scan.expect(91)
            scan.count(1)
            if scan.peek() == 93:
                if scan.guessed and scan.i + 1 != scan.rounds_end:
                    raise _Decline()  # the rounds end before the last "]": not the last field
                return digests
            while True:
                r += 1
                digests.append(self._round(scan, r))
                c = scan.peek()
                scan.i += 1
                if c == 93:
                    if scan.guessed and scan.i != scan.rounds_end:
                        raise _Decline()
                    return digests
                if c != 44:
                    raise _Decline()
        except _Decline:
            return None

    def names_list(self):
        """The players' names by index."""
        return self.names

    def points_scale_value(self):
        """The rank points' scale (the sums hold rank points times it)."""
        return self.points_scale

    def exact(self):
        """True when every share fits the 128-bit sums (else the caller orders in Python)."""
        cdef Py_ssize_t i
        for i in range(self.n):
            if self.is_big[i]:
                return False
        return True

    cdef int _cmp(self, Py_ssize_t p, Py_ssize_t q, int *chain, int n_chain) except? -2:
        """-1 if player p stands above q by the chain (without the lot), 1 if below, 0 if equal."""
        cdef int c, code, r
        cdef long long x, y
        cdef double fx, fy, fm
        for c in range(n_chain):
            code = chain[c]
            if code == C_SHARE:
                if self.share_approx != NULL:
                    # doubles within a few units in the last place of the fractions: a gap of
                    # a millionth of a millionth decides the order as the fractions would
                    fx = self.share_approx[q]
                    fy = self.share_approx[p]
                    fm = fabs(fx) if fabs(fx) > fabs(fy) else fabs(fy)
                    if fx - fy > 1e-12 * fm:
                        return 1
                    if fy - fx > 1e-12 * fm:
                        return -1
                r = agon_cmp_frac(self.share_num[q], self.share_den[q],
                                  self.share_num[p], self.share_den[p])
                if r != 0:
                    return r
                continue
            if code == C_POINTS:
                x, y = self.pts[p], self.pts[q]
            elif code == C_VP:
                x, y = self.vp[p], self.vp[q]
            elif code == C_COINS:
                x, y = self.coins[p], self.coins[q]
            else:  # C_PP
                x = self.vp[p] - self.bids[p] if self.by_bid else self.vp[p]
                y = self.vp[q] - self.bids[q] if self.by_bid else self.vp[q]
            if x != y:
                return -1 if x > y else 1
        return 0

    def order(self, tuple chain, bytes lot_prefix):
        """The players' order by ``chain`` (names of :data:`PASS_CRITERIA`, the lot last), the
        lot being SHA-256 of ``lot_prefix`` + the name's UTF-8 (first 8 bytes, big-endian,
        smaller first), then the name: (the indices in order, per row the position in ``chain``
        of the criterion that placed it below the row above, -1 for the first row).

        Raises:
            ValueError: a criterion the pass does not know, the lot not last, or a share beyond
                128 bits (:meth:`exact`).
        """
        cdef int codes[16]
        cdef int n_chain = 0, c, code
        cdef Py_ssize_t n = self.n, i, j, a, b, e, w, width, m
        cdef Py_ssize_t *idx
        cdef Py_ssize_t *tmp
        cdef Py_ssize_t *swap
        cdef unsigned long long *lot
        cdef int r
        if len(chain) > 16 or not chain or chain[len(chain) - 1] != "lot":
            raise ValueError("the chain must end with the lot")
        for name in chain[:-1]:
            if name not in PASS_CRITERIA or name == "lot":
                raise ValueError(f"the event pass does not order by {name!r}")
            codes[n_chain] = PASS_CRITERIA.index(name)
            n_chain += 1
        if not self.exact():
            raise ValueError("a share beyond 128 bits")
        m = n if n > 0 else 1
        idx = <Py_ssize_t *> malloc(m * sizeof(Py_ssize_t))
        tmp = <Py_ssize_t *> malloc(m * sizeof(Py_ssize_t))
        lot = <unsigned long long *> malloc(m * sizeof(unsigned long long))
        self.share_approx = <double *> malloc(m * sizeof(double))
        if not idx or not tmp or not lot or not self.share_approx:
            free(idx)
            free(tmp)
            free(lot)
            free(self.share_approx)
            self.share_approx = NULL
            raise MemoryError()
        for i in range(n):  # is_big: none here (exact() above); each conversion rounds once
            self.share_approx[i] = agon_to_double(self.share_num[i]) / agon_to_double(self.share_den[i])
        try:
            # bottom-up merge sort (stable) of the indices in name order, by the chain
            for i in range(n):
                idx[i] = self.by_name[i]
            width = 1
            while width < n:
                i = 0
                while i < n:
                    a = i
                    b = i + width if i + width < n else n
                    j = b
                    e = i + 2 * width if i + 2 * width < n else n
                    w = i
                    while a < b and j < e:
                        if self._cmp(idx[j], idx[a], codes, n_chain) < 0:
                            tmp[w] = idx[j]
                            j += 1
                        else:
                            tmp[w] = idx[a]
                            a += 1
                        w += 1
                    while a < b:
                        tmp[w] = idx[a]
                        a += 1
                        w += 1
                    while j < e:
                        tmp[w] = idx[j]
                        j += 1
                        w += 1
                    i = e
                swap = idx
                idx = tmp
                tmp = swap
                width *= 2
            # runs equal on the whole chain: ordered by the lot, then (stable) by name
            decided = [-1] * n
            i = 0
            while i < n:
                j = i + 1
                while j < n and self._cmp(idx[i], idx[j], codes, n_chain) == 0:
                    j += 1
                if j - i > 1:
                    for a in range(i, j):
                        digest = sha256(lot_prefix + self.names[idx[a]].encode()).digest()
                        lot[idx[a]] = int.from_bytes(digest[:8], "big")
                    # insertion sort of the run by the lot (stable: equal lots keep name order)
                    for a in range(i + 1, j):
                        w = idx[a]
                        b = a
                        while b > i and lot[idx[b - 1]] > lot[w]:
                            idx[b] = idx[b - 1]
                            b -= 1
                        idx[b] = w
                    for a in range(i + 1, j):
                        decided[a] = n_chain
                if i > 0:
                    decided[i] = self._first_difference(idx[i - 1], idx[i], codes, n_chain)
                i = j
            return [idx[i] for i in range(n)], decided
        finally:
            free(idx)
            free(tmp)
            free(lot)
            free(self.share_approx)
            self.share_approx = NULL

    cdef int _first_difference(self, Py_ssize_t p, Py_ssize_t q, int *codes, int n_chain) except? -2:
        """The position in the chain of the first criterion on which p and q differ (the lot's,
        ``n_chain``, if none)."""
        cdef int c
        for c in range(n_chain):
            if self._cmp(p, q, codes + c, 1) != 0:
                return c
        return n_chain

    def share_floats(self):
        """Every player's share (by index) as the float nearest to it, as ``float(Fraction)``."""
        cdef Py_ssize_t i
        cdef long long lim = 9007199254740992  # 2**53: a double holds every integer up to it
        out = []
        for i in range(self.n):
            if self.is_big[i]:
                num, den = self.big[i]
                out.append(num / den)
            elif (agon_fits64(self.share_num[i]) and agon_fits64(self.share_den[i])
                    and -lim <= agon_to64(self.share_num[i]) <= lim
                    and agon_to64(self.share_den[i]) <= lim):
                out.append(<double> agon_to64(self.share_num[i]) / <double> agon_to64(self.share_den[i]))
            else:
                out.append(_to_int(self.share_num[i]) / _to_int(self.share_den[i]))
        return out


    def table_text(self, str title, tuple chain, tuple shown, list ranked, list decided):
        """The standings table as ``agon standings FILE`` prints it, UTF-8 (no final newline):
        :func:`agon.commands._standings_text.columns_table` of the columns
        :func:`agon.tournament.bulk.standings_columns` makes of this pass, written here without
        a Python string per cell (a property test compares the two). ``ranked`` and ``decided``
        are what :meth:`order` gave for ``chain``; ``shown``: the tie-breakers shown as columns
        (the chain's but the points first and the lot). ``None`` where a number is beyond what
        this writes exactly (the caller then writes the columns in Python)."""
        cdef Py_ssize_t n = self.n, r, i, c, n_shown = len(shown), n_cols = 5 + len(shown)
        cdef long long lim = 9007199254740992  # 2**53
        cdef int codes[16]
        cdef long long d
        cdef list cols = []
        cdef list words = []
        cdef _Cells col, c_rank, c_name, c_points, c_games, c_decided
        cdef const char *text
        cdef Py_ssize_t size
        cdef Py_ssize_t *rows
        if len(ranked) != n or len(decided) != n or self.points_scale > lim or n_shown > 16:
            raise ValueError("ranked and decided must have a row per player")
        for c in range(n_shown):
            if shown[c] not in PASS_CRITERIA or shown[c] == "lot":
                raise ValueError(f"the table does not show {shown[c]!r}")
            codes[c] = PASS_CRITERIA.index(shown[c])
        for word in chain:
            if type(word) is not str:
                raise ValueError("the chain names criteria")
            words.append(word)
        for r in range(n):
            i = ranked[r]
            if i < 0 or i >= n:
                raise ValueError("ranked is not an order of the players")
            if self.pts[i] > lim or self.pts[i] < -lim:
                return None
        header = ["#", "player", "points", *shown, "games", "decided by"]
        for c in range(n_cols):
            cols.append(_Cells(n, c != 1 and c != n_cols - 1, len(header[c])))
        c_rank, c_name, c_points = cols[0], cols[1], cols[2]
        c_games, c_decided = cols[n_cols - 2], cols[n_cols - 1]
        rows = <Py_ssize_t *> malloc((n if n > 0 else 1) * sizeof(Py_ssize_t))
        if not rows:
            raise MemoryError()
        try:
            for r in range(n):
                rows[r] = ranked[r]
            for r in range(n):
                i = rows[r]
                c_rank.add_ll(r + 1)
                if self.name_ptr != NULL:
                    c_name.add(self.name_ptr[i], self.name_len[i], self.name_chars[i])
                else:
                    name = self.names[i]
                    text = PyUnicode_AsUTF8AndSize(name, &size)
                    c_name.add(text, size, PyUnicode_GET_LENGTH(name))
                c_points.add_points(self.pts[i], self.points_scale)
                c_games.add_ll(self.games[i])
            for c in range(n_shown):
                col = cols[3 + c]
                for r in range(n):
                    i = rows[r]
                    if codes[c] == C_POINTS:
                        col.add_points(self.pts[i], self.points_scale)
                    elif codes[c] == C_SHARE:
                        col.add_fixed(self._share_float(i), 4)
                    elif codes[c] == C_VP:
                        col.add_ll(self.vp[i])
                    elif codes[c] == C_COINS:
                        col.add_ll(self.coins[i])
                    else:  # C_PP
                        col.add_ll(self.vp[i] - self.bids[i] if self.by_bid else self.vp[i])
        finally:
            free(rows)
        for r in range(n):
            d = decided[r]
            if d >= len(words):
                raise ValueError("decided names a place beyond the chain")
            word = words[d] if d >= 0 else ""
            text = PyUnicode_AsUTF8AndSize(word, &size)
            c_decided.add(text, size, PyUnicode_GET_LENGTH(word))
        out = _Buffer()
        text = PyUnicode_AsUTF8AndSize(title, &size)
        out.put(text, size)
        _line(out, cols, -1, header)
        _line(out, cols, -2, None)
        for r in range(n):
            _line(out, cols, r, None)
        return PyBytes_FromStringAndSize(out.data, out.size)

    cdef double _share_float(self, Py_ssize_t i) except? -1.0:
        """Player i's share as :meth:`share_floats` gives it."""
        cdef long long lim = 9007199254740992
        if self.is_big[i]:
            num, den = self.big[i]
            return num / den
        if (agon_fits64(self.share_num[i]) and agon_fits64(self.share_den[i])
                and -lim <= agon_to64(self.share_num[i]) <= lim
                and agon_to64(self.share_den[i]) <= lim):
            return <double> agon_to64(self.share_num[i]) / <double> agon_to64(self.share_den[i])
        return _to_int(self.share_num[i]) / _to_int(self.share_den[i])


#: The longest name :func:`agon.tournament.names.check_name` takes (``NAME_MAX``).
NAME_MAX = 80


def plain_names(list names):
    """True when every item of ``names`` is a ``str`` that
    :func:`agon.tournament.names.check_name` takes as it is written: 1 to :data:`NAME_MAX`
    characters, no white space at either end, none of the characters it refuses (controls,
    direction marks, line separators, lone surrogates). False says nothing more: the caller
    then checks each name the usual way (which names the problem)."""
    cdef str s
    cdef Py_ssize_t n
    cdef Py_UCS4 ch
    for item in names:
        if type(item) is not str:
            return False
        s = <str> item
        n = PyUnicode_GET_LENGTH(s)
        if n == 0 or n > NAME_MAX:
            return False
        if Py_UNICODE_ISSPACE(s[0]) or Py_UNICODE_ISSPACE(s[n - 1]):
            return False
        for ch in s:
            if (ch < 0x20 or 0x7f <= ch <= 0x9f or 0x202a <= ch <= 0x202e
                    or 0x2066 <= ch <= 0x2069 or ch == 0x200e or ch == 0x200f or ch == 0x061c
                    or ch == 0x2028 or ch == 0x2029 or 0xd800 <= ch <= 0xdfff):
                return False
    return True
