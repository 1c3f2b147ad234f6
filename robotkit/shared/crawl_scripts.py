"""The Lua scripts of a shared crawl (:mod:`robotkit.shared.crawl`).

Two kinds, so that no script spans two Redis Cluster slots (ARCHITECTURE.md, "The
crawl shared by several workers"):

* host scripts touch one host's keys only, all tagged ``{<origin>}``: its seen
  filter (a scalable Bloom filter in one string, whose header holds the host's owner
  token, whether it was ever owned, the filter's level and fill), its pending hash,
  its inbox list and its drained hash (the last three exist only while not empty:
  a host with nothing to do is one key);
* the crawl script touches the crawl-wide keys only, tagged ``{<crawl id>}``: the
  worker table, the index of claimable hosts, who may own what, the mail and the
  outboxes, the end.

Every script does O(log H) plus the work it is given, never a walk of the hosts.
"""

from __future__ import annotations

__all__ = [
    "BLOOM_BASE_BITS",
    "BLOOM_BASE_HASHES",
    "CLAIM",
    "CRAWL",
    "DRAIN",
    "HEADER_BYTES",
    "HOST",
    "STATUS",
]

BLOOM_BASE_BITS = 256
"""Bits of a host's first Bloom level; level i has ``256 * 2**i`` bits."""

BLOOM_BASE_HASHES = 17
"""Hashes of the first level (a false-positive rate of 2^-17, 7.6·10^-6, when full);
level i has ``17 + i``, so its rate halves and the chain's compound rate stays under
1.6·10^-5. A false positive is a page never fetched: at 10 hashes (0.1%) a crawl of
1,500 pages lost one about every other run, for about 3 more bits a key (24.5 bits a
key when full; the first level still holds ten keys, the common host)."""

HEADER_BYTES = 24
"""The seen filter string's header, before its bits: the owner token (10 characters,
space-padded; blank for none), ``1`` when the host was ever owned, the filter's level
(2 digits) and the keys in that level (10 digits), and a space. One string per host
instead of a string and a hash: a hash's key costs more than the fields it holds."""

_HEADER = f"""
local H = {HEADER_BYTES}
-- The host's header: owner ('' for none), had ('1' or ''), level, keys in the level.
local function head(s)
  local h = redis.call('GETRANGE', s, 0, H - 1)
  if #h < H then return '', '', 0, 0 end
  local o = string.match(string.sub(h, 1, 10), '^(%S*)')
  local had = string.sub(h, 11, 11) == '1' and '1' or ''
  return o, had, tonumber(string.sub(h, 12, 13)), tonumber(string.sub(h, 14, 23))
end
local function header(o, had, lv, n) return string.format('%-10s%1s%02d%010d ', o, had, lv, n) end
local function put_head(s, o, had, lv, n) redis.call('SETRANGE', s, 0, header(o, had, lv, n)) end
"""

_BLOOM = f"""
local M0, K0 = {BLOOM_BASE_BITS}, {BLOOM_BASE_HASHES}
-- Bit j of a key in a level of m bits: the high bits of h1 + j h2 + j(j-1)/2 h3 mod
-- 2^32 (m is a power of two: the product is exact). Double hashing alone (no h3) walks
-- an arithmetic progression of the level: a key whose step is near m/2, m/3, m/4...
-- sets two, three, four distinct bits, and the filter was wrong 10 to 40 times as
-- often as its fill predicts; the quadratic term breaks the progression.
local function at(h1, h2, h3, j, m)
  return math.floor((h1 + j * h2 + j * (j - 1) / 2 * h3) % 4294967296 * m / 4294967296)
end
local function bloom_has(s, lv, h1, h2, h3)
  for i = 0, lv do
    local m, b, hit = M0 * 2 ^ i, 8 * H + M0 * (2 ^ i - 1), true
    for j = 0, K0 + i - 1 do
      if redis.call('GETBIT', s, b + at(h1, h2, h3, j, m)) == 0 then hit = false break end
    end
    if hit then return true end
  end
  return false
end
-- Adds the key unless present; returns true when it was new. Fills level lv up to
-- m ln 2 / k keys, then opens the next (twice the bits, one more hash).
local bl, bn
local function bloom_add(s, h1, h2, h3)
  h1, h2, h3 = tonumber(h1), tonumber(h2), tonumber(h3)
  if bloom_has(s, bl, h1, h2, h3) then return false end
  if bn >= math.floor(M0 * 2 ^ bl * 0.6931 / (K0 + bl)) then bl, bn = bl + 1, 0 end
  -- The string is written whole at each level's size: SETBIT past its end would grow
  -- it greedily (twice what it needs, below 1 MB), and it is most of a host's memory.
  local size = H + M0 * (2 ^ (bl + 1) - 1) / 8
  if redis.call('STRLEN', s) < size then
    local cur = redis.call('GET', s) or ''
    if #cur < H then cur = header('', '', 0, 0) end
    redis.call('SET', s, cur .. string.rep('\\0', size - #cur))
  end
  local m, b = M0 * 2 ^ bl, 8 * H + M0 * (2 ^ bl - 1)
  for j = 0, K0 + bl - 1 do redis.call('SETBIT', s, b + at(h1, h2, h3, j, m), 1) end
  bn = bn + 1
  return true
end
"""

# KEYS seen, pending, inbox, drained. ARGV me (owner token), ops (JSON list):
#   ["d", key]                      done: out of pending
#   ["s", key]                      a drained link was screened: out of drained
#   ["t", key, h1, h2, h3, record]  the owner took the URL on: seen, pending
#   ["r", h1, h2, h3]               the owner refused a URL: seen
#   ["o", key, h1, h2, h3, record]  an offer: to the inbox unless seen
#   ["x"]                           the owner gives the host back
# Only offers are taken from a worker that does not own the host (the others are
# dropped: the owner refetches the page they came from). Returns {owner, 1 when this
# call put the inbox's first link, work left (pending + inbox + drained)}.
HOST = (
    _HEADER
    + _BLOOM
    + """
local s, q, ib, dr = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local me = ARGV[1]
local o, had
o, had, bl, bn = head(s)
local o0, bl0, bn0 = o, bl, bn
local before = redis.call('LLEN', ib)
local pushed = 0
for _, a in ipairs(cjson.decode(ARGV[2])) do
  local op = a[1]
  if op == 'o' then
    if bloom_add(s, a[3], a[4], a[5]) then
      redis.call('RPUSH', ib, a[2] .. '\\0' .. a[6])
      pushed = 1
    end
  elseif o == me then
    if op == 'd' then redis.call('HDEL', q, a[2])
    elseif op == 's' then redis.call('HDEL', dr, a[2])
    elseif op == 't' then bloom_add(s, a[3], a[4], a[5]) redis.call('HSET', q, a[2], a[6])
    elseif op == 'r' then bloom_add(s, a[2], a[3], a[4])
    elseif op == 'x' then o = ''
    end
  end
end
if o ~= o0 or bl ~= bl0 or bn ~= bn0 then put_head(s, o, had, bl, bn) end
local first = 0
if before == 0 and pushed == 1 then first = 1 end
local work = redis.call('HLEN', q) + redis.call('LLEN', ib) + redis.call('HLEN', dr)
return {o, first, work}
"""
)

# KEYS seen, pending, inbox, drained. ARGV me, from (the owner the index knew: a
# dead worker's token, or '' for none). Claims the host when it is owned by no one
# or by ``from`` and has work. Returns {1, inherited, pending k/v..., drained k/v...}
# when claimed (the inbox moved to drained), {0, owner} when another worker owns it,
# {0, ''} when it has no work (then it is owned by no one), {2} when it is ours.
CLAIM = (
    _HEADER
    + """
local s, q, ib, dr = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local me, from = ARGV[1], ARGV[2]
local o, had, lv, n = head(s)
if o == me then return {2} end
if o ~= '' and o ~= from then return {0, o} end
if redis.call('HLEN', q) + redis.call('LLEN', ib) + redis.call('HLEN', dr) == 0 then
  if o ~= '' then put_head(s, '', had, lv, n) end
  return {0, ''}
end
put_head(s, me, '1', lv, n)
for _, item in ipairs(redis.call('LRANGE', ib, 0, -1)) do
  local z = string.find(item, '\\0', 1, true)
  redis.call('HSET', dr, string.sub(item, 1, z - 1), string.sub(item, z + 1))
end
redis.call('DEL', ib)
return {1, had == '1' and 1 or 0, redis.call('HGETALL', q), redis.call('HGETALL', dr)}
"""
)

# KEYS seen, inbox, drained. ARGV me, most: the owner takes up to ``most`` links out
# of the inbox into drained. Returns {1, items, left in the inbox}, {0} if not ours.
DRAIN = (
    _HEADER
    + """
local s, ib, dr = KEYS[1], KEYS[2], KEYS[3]
if head(s) ~= ARGV[1] then return {0} end
local items = redis.call('LRANGE', ib, 0, tonumber(ARGV[2]) - 1)
if #items > 0 then
  redis.call('LTRIM', ib, #items, -1)
  for _, item in ipairs(items) do
    local z = string.find(item, '\\0', 1, true)
    redis.call('HSET', dr, string.sub(item, 1, z - 1), string.sub(item, z + 1))
  end
end
return {1, items, redis.call('LLEN', ib)}
"""
)

# KEYS seen, pending, inbox, drained: a host looked at again after a worker died
# between offering to it and announcing the offer. Returns {owner, inbox, work}.
STATUS = (
    _HEADER
    + """
local s, q, ib, dr = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local inbox = redis.call('LLEN', ib)
return {(head(s)), inbox, redis.call('HLEN', q) + inbox + redis.call('HLEN', dr)}
"""
)

# KEYS workers (token -> lease end), idle (token -> 0/1), load (token -> hosts held),
# loadsum, free (host -> order), from (host -> token), check (hosts to look at),
# owned / mail / outbox (lexical 'token\\0host'), dead (tokens to reap), finished, seq.
# ARGV mode ('sync', 'note', 'leave'), me (token, '' before the first sync: a new
# one is the crawl's next number, unique to one life of one worker), now, lease, idle,
# load, claims, checks, mails, reap, post (JSON), note (JSON hosts), own (JSON hosts:
# ours, at rest, about to be given work: their ``owned`` entries are written first).
# An ``owned`` entry is kept only while its host has work: a host at rest is its seen
# filter alone, and it needs no reaping (a dead owner's ``mail`` entries go to ``free``,
# and popping a ``mail`` entry writes the owner's ``owned`` entry back).
# The post are the consequences of the worker's last host scripts:
#   ["free", h, from]  h has work and may be owned by no one (or by dead ``from``)
#   ["mail", h, owner] h's inbox got its first link: for its owner
#   ["unown", h]       h is not ours (no longer, or never was)
#   ["verify", h, o]   our claim met owner o: o's if o lives, else free from o
#   ["remail", h]      links are left in our h's inbox
#   ["unout", h]       our offers to h are announced
# Returns {finished, token, lost (1: this worker had been reaped), claims {h, from}...,
#          checks, mails, excess}.
CRAWL = """
local W, IDLE, LOAD, LOADSUM, F, FROM = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local C, OWNED, MAIL, OUT, DEAD, FIN, SEQ = KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11],
  KEYS[12], KEYS[13]
local mode, me, now, lease = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local function free(h, from)
  if not redis.call('ZSCORE', F, h) then redis.call('ZADD', F, redis.call('INCR', SEQ), h) end
  redis.call('HSET', FROM, h, from)
end
local function lex(t) return '[' .. t .. '\\0', '[' .. t .. '\\0\\255' end
local function unload(t)
  local n = tonumber(redis.call('HGET', LOAD, t) or '0')
  redis.call('DECRBY', LOADSUM, n)
  redis.call('HDEL', LOAD, t)
  redis.call('HDEL', IDLE, t)
end
local function gone(t)
  redis.call('ZREM', W, t)
  unload(t)
  redis.call('ZADD', DEAD, 0, t)
end
-- The worker's own post first: it refers to its token as it was.
local live = me ~= '' and redis.call('ZSCORE', W, me)
for _, p in ipairs(cjson.decode(ARGV[11])) do
  local op, h = p[1], p[2]
  if op == 'free' then free(h, p[3])
  elseif op == 'mail' then
    if redis.call('ZSCORE', W, p[3]) then redis.call('ZADD', MAIL, 0, p[3] .. '\\0' .. h)
    else free(h, p[3]) end
  elseif op == 'unown' then redis.call('ZREM', OWNED, me .. '\\0' .. h)
  elseif op == 'verify' then
    if not redis.call('ZSCORE', W, p[3]) then free(h, p[3]) end
    redis.call('ZREM', OWNED, me .. '\\0' .. h)
  elseif op == 'remail' then
    if live then redis.call('ZADD', MAIL, 0, me .. '\\0' .. h) else free(h, me) end
  elseif op == 'unout' then redis.call('ZREM', OUT, me .. '\\0' .. h)
  end
end
for _, h in ipairs(cjson.decode(ARGV[13])) do
  if live then redis.call('ZADD', OWNED, 0, me .. '\\0' .. h) else free(h, me) end
end
if mode == 'leave' then
  if live then gone(me) end
  return {0, me, 0, {}, {}, {}, 0}
end
local note = cjson.decode(ARGV[12])
if mode == 'note' then
  for _, h in ipairs(note) do
    if live then redis.call('ZADD', OUT, 0, me .. '\\0' .. h) else redis.call('SADD', C, h) end
  end
  return {0, me, live and 0 or 1, {}, {}, {}, 0}
end
if redis.call('EXISTS', FIN) == 1 then return {1, me, 0, {}, {}, {}, 0} end
-- Renewed first: a worker late past its lease keeps its hosts if no one reaped it.
if live then redis.call('ZADD', W, now + lease, me) end
-- Workers past their lease are reaped, a bounded number of entries per sync.
for _, t in ipairs(redis.call('ZRANGEBYSCORE', W, '-inf', '(' .. now)) do gone(t) end
local budget = tonumber(ARGV[10])
for _, t in ipairs(redis.call('ZRANGE', DEAD, 0, 3)) do
  local lo, hi = lex(t)
  local rest = false
  for _, pair in ipairs({{OWNED, 'owned'}, {MAIL, 'mail'}, {OUT, 'out'}}) do
    local entries = redis.call('ZRANGEBYLEX', pair[1], lo, hi, 'LIMIT', 0, budget)
    for _, e in ipairs(entries) do
      local h = string.sub(e, #t + 2)
      if pair[2] == 'out' then redis.call('SADD', C, h) else free(h, t) end
      redis.call('ZREM', pair[1], e)
    end
    budget = budget - #entries
    if budget <= 0 then rest = true break end
  end
  if rest then break end
  redis.call('ZREM', DEAD, t)
end
local lost = 0
if not live then
  if me ~= '' then lost = 1 end
  me = tostring(redis.call('INCR', SEQ))
end
for _, h in ipairs(note) do redis.call('ZADD', OUT, 0, me .. '\\0' .. h) end
redis.call('ZADD', W, now + lease, me)
local load = tonumber(ARGV[6])
if lost == 1 then load = 0 end
redis.call('INCRBY', LOADSUM, load - tonumber(redis.call('HGET', LOAD, me) or '0'))
redis.call('HSET', LOAD, me, load)
local workers = redis.call('ZCARD', W)
local free_n = redis.call('ZCARD', F)
local held = tonumber(redis.call('GET', LOADSUM) or '0')
local share = math.max(1, math.ceil((held + free_n) / workers))
local claims = {}
local want = math.min(tonumber(ARGV[7]), share - load)
if want > 0 and free_n > 0 then
  local popped = redis.call('ZPOPMIN', F, want)
  for i = 1, #popped, 2 do
    local h = popped[i]
    local from = redis.call('HGET', FROM, h) or ''
    redis.call('HDEL', FROM, h)
    redis.call('ZADD', OWNED, 0, me .. '\\0' .. h)
    claims[#claims + 1] = {h, from}
  end
end
local checks = redis.call('SPOP', C, tonumber(ARGV[8]))
for _, h in ipairs(checks) do redis.call('ZADD', OUT, 0, me .. '\\0' .. h) end
local lo, hi = lex(me)
local mails = {}
for _, e in ipairs(redis.call('ZRANGEBYLEX', MAIL, lo, hi, 'LIMIT', 0, tonumber(ARGV[9]))) do
  redis.call('ZREM', MAIL, e)
  redis.call('ZADD', OWNED, 0, e)  -- the drained links are work: reaped with the host
  mails[#mails + 1] = string.sub(e, #me + 2)
end
local idle = ARGV[5]
if #claims > 0 or #checks > 0 or #mails > 0 then idle = '0' end
redis.call('HSET', IDLE, me, idle)
local finished = 0
if idle == '1' and redis.call('ZCARD', F) == 0 and redis.call('SCARD', C) == 0
    and redis.call('ZCARD', OUT) == 0 and redis.call('ZCARD', MAIL) == 0
    and redis.call('ZCARD', DEAD) == 0 then
  finished = 1
  for _, v in ipairs(redis.call('HVALS', IDLE)) do
    if v ~= '1' then finished = 0 break end
  end
  if finished == 1 then redis.call('SET', FIN, '1') end
end
return {finished, me, lost, claims, checks, mails, load + #claims - share}
"""
