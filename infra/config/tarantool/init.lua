-- IntegrationService Tarantool instance: the same file runs locally (script/services) and on
-- the AWS database host (infra/provision/db.sh). Settings come from the environment so the
-- scripts can choose port and directories; everything below is idempotent.
-- The port is the caller's: script/services passes the one of infra/config/ports.txt, db.sh the host's.
local listen = os.getenv('TARANTOOL_LISTEN')
if listen == nil or listen == '' then error('TARANTOOL_LISTEN is not set (host:port to listen on)') end
local work_dir = os.getenv('TARANTOOL_WORK_DIR') or '.'
local background = os.getenv('TARANTOOL_BACKGROUND') == '1'

box.cfg{
    listen = listen,
    work_dir = work_dir,
    background = background,
    pid_file = os.getenv('TARANTOOL_PID_FILE'),
    log = os.getenv('TARANTOOL_LOG'),
    -- Durability: every transaction is written to the WAL before it is acknowledged; the WAL
    -- is not fsynced per commit ('write', Tarantool's default), so a host crash (not a
    -- process crash) can lose the last moments of writes. See README "Durability".
    wal_mode = os.getenv('TARANTOOL_WAL_MODE') or 'write',
    memtx_memory = tonumber(os.getenv('TARANTOOL_MEMTX_MEMORY') or 8 * 1024 * 1024 * 1024),
    vinyl_memory = tonumber(os.getenv('TARANTOOL_VINYL_MEMORY') or 512 * 1024 * 1024),
    vinyl_cache = tonumber(os.getenv('TARANTOOL_VINYL_CACHE') or 256 * 1024 * 1024),
    readahead = 1024 * 1024,
    -- The key-value API's values go up to 1 MiB (IntegrationService/Kv/KvLimits.cs) plus the key:
    -- above both engines' default largest tuple (1 MiB).
    memtx_max_tuple_size = 2 * 1024 * 1024,
    vinyl_max_tuple_size = 2 * 1024 * 1024,
    net_msg_max = 4096,
}

local user = os.getenv('TARANTOOL_USER') or 'integration'
local password = os.getenv('TARANTOOL_PASSWORD') or 'integration'

box.once('integration-users-v1', function()
    box.schema.user.create(user, { password = password, if_not_exists = true })
    box.schema.user.grant(user, 'read,write,execute,create,drop,alter', 'universe', nil,
        { if_not_exists = true })
end)

-- Author tuple, field order (IntegrationService/Storage/Tarantool/AuthorTuple.cs maps it):
--  1 id  2 name  3 family_name  4 middle_name  5 age  6 birth_country  7 birth_city
--  8 books_count  9 nationality  10 birth_date_time (microseconds since the Unix epoch, UTC)
local author_format = {
    { name = 'id', type = 'unsigned' },
    { name = 'name', type = 'string' },
    { name = 'family_name', type = 'string' },
    { name = 'middle_name', type = 'string', is_nullable = true },
    { name = 'age', type = 'unsigned' },
    { name = 'birth_country', type = 'string', is_nullable = true },
    { name = 'birth_city', type = 'string', is_nullable = true },
    { name = 'books_count', type = 'unsigned' },
    { name = 'nationality', type = 'string', is_nullable = true },
    { name = 'birth_date_time', type = 'integer', is_nullable = true },
}

-- Location tuple: 1 id  2 text  3 x  4 y.   Item tuple: 1 item_id  2 array of location ids.
-- One tuple per item holds its whole set, so replacing the set is one atomic replace.
local location_format = {
    { name = 'id', type = 'unsigned' },
    { name = 'location', type = 'string' },
    { name = 'x', type = 'double' },
    { name = 'y', type = 'double' },
}
local item_format = {
    { name = 'item_id', type = 'unsigned' },
    { name = 'location_ids', type = 'array' },
}

for _, engine in ipairs({ 'memtx', 'vinyl' }) do
    local authors = box.schema.space.create('authors_' .. engine,
        { engine = engine, format = author_format, if_not_exists = true })
    box.schema.sequence.create('authors_' .. engine .. '_seq', { if_not_exists = true })
    authors:create_index('primary', { parts = { 'id' }, sequence = 'authors_' .. engine .. '_seq',
        if_not_exists = true })

    local locations = box.schema.space.create('locations_' .. engine,
        { engine = engine, format = location_format, if_not_exists = true })
    locations:create_index('primary', { parts = { 'id' }, if_not_exists = true })

    local items = box.schema.space.create('items_' .. engine,
        { engine = engine, format = item_format, if_not_exists = true })
    items:create_index('primary', { parts = { 'item_id' }, if_not_exists = true })
end

-- Stored functions: one round trip per API call.

-- Returns the item's locations as an array of {id, text, x, y}, ordered by id.
function item_locations_get(engine, item_id)
    local item = box.space['items_' .. engine]:get(item_id)
    if item == nil then return {} end
    local locations = box.space['locations_' .. engine]
    local result = {}
    for _, id in ipairs(item[2]) do
        local location = locations:get(id)
        if location ~= nil then table.insert(result, location) end
    end
    return result
end

-- Replaces the item's whole set. Returns the list of unknown location ids (empty on success);
-- nothing is written when any id is unknown.
function item_locations_set(engine, item_id, location_ids)
    local locations = box.space['locations_' .. engine]
    local missing = {}
    for _, id in ipairs(location_ids) do
        if locations:get(id) == nil then table.insert(missing, id) end
    end
    if #missing > 0 then return missing end
    table.sort(location_ids)
    if #location_ids == 0 then
        box.space['items_' .. engine]:delete(item_id)
    else
        box.space['items_' .. engine]:replace({ item_id, location_ids })
    end
    return missing
end

-- Bulk load for the seeder (TarantoolItemDataLoader): replaces a batch of tuples in one
-- transaction, so a batch is one request and one WAL write; replace keeps reloading idempotent.
-- Lua turns a whole double such as 53.0 into an integer, which a 'double' field rejects, so
-- those fields are cast back to double.
local ffi = require('ffi')

function bulk_replace(space_name, tuples)
    local space = box.space[space_name]
    local doubles = {}
    for i, field in ipairs(space:format()) do
        if field.type == 'double' then table.insert(doubles, i) end
    end
    box.begin()
    local ok, err = pcall(function()
        for _, tuple in ipairs(tuples) do
            for _, i in ipairs(doubles) do tuple[i] = ffi.cast('double', tuple[i]) end
            space:replace(tuple)
        end
    end)
    if not ok then
        box.rollback()
        error(err)
    end
    box.commit()
    return #tuples
end

-- Runs work(...) in a transaction and returns its result. Vinyl aborts a transaction when
-- another one changed what it read meanwhile (a conflict); the work is then retried, up to
-- `attempts` times, so callers see one winner and the state it left for the rest.
local function in_transaction(attempts, work, ...)
    for _ = 1, attempts do
        box.begin()
        local ok, result = pcall(work, ...)
        if ok then
            box.commit()
            return result
        end
        box.rollback()
        if type(result) ~= 'cdata' or result.code ~= box.error.TRANSACTION_CONFLICT then error(result) end
    end
    box.error(box.error.TRANSACTION_CONFLICT)
end

-- Deletes by primary key and tells whether the tuple existed: vinyl's delete is blind and
-- returns nothing, so the API's 404 needs the read in the same transaction (concurrent deletes
-- or updates of one author conflict on vinyl and are retried).
local function delete_if_present(space, id)
    local old = space:get(id)
    if old ~= nil then space:delete(id) end
    return old ~= nil
end

function delete_existing(space_name, id)
    return in_transaction(16, delete_if_present, box.space[space_name], id)
end

local log = require('log')

-- Queues (/write/tarantool-memtx, /read/tarantool-vinyl, …): a FIFO space per engine, a message
-- per tuple {id, body}; ids from a sequence, so the oldest message has the smallest id.
local queue_format = {
    { name = 'id', type = 'unsigned' },
    { name = 'body', type = 'string' },
}
for _, engine in ipairs({ 'memtx', 'vinyl' }) do
    local queue = box.schema.space.create('queue_' .. engine,
        { engine = engine, format = queue_format, if_not_exists = true })
    box.schema.sequence.create('queue_' .. engine .. '_seq', { if_not_exists = true })
    queue:create_index('primary', { parts = { 'id' }, sequence = 'queue_' .. engine .. '_seq',
        if_not_exists = true })
end

-- vinyl's queue keeps the ids of its waiting messages in a memtx space too: `queue_vinyl_waiting`,
-- temporary (never written to the WAL, empty after a restart and rebuilt below from the vinyl space,
-- which stays the durable copy). Why: a vinyl take that looks for the oldest message in the LSM tree
-- steps over the tombstone of every message taken since the last compaction (7.5 ms a take on a
-- queue of 72 000 after 80 000 takes; p99 944 ms at a million deep, issue 24). memtx finds the
-- oldest id at once, and a take then reads and deletes that one key in vinyl, which touches no
-- tombstone but its own. Taking the id out of memtx is the claim: it does not yield, so concurrent
-- takers get different ids with no latch and no transaction conflict.
local waiting = box.schema.space.create('queue_vinyl_waiting',
    { engine = 'memtx', temporary = true, format = { { name = 'id', type = 'unsigned' } }, if_not_exists = true })
waiting:create_index('primary', { parts = { 'id' }, if_not_exists = true })
do
    -- Before queue_put and queue_take exist (they are defined below), so nothing races the rebuild;
    -- a million-deep queue takes seconds here, as its count does.
    local clock = require('clock')
    local started = clock.monotonic()
    for _, tuple in box.space.queue_vinyl:pairs() do waiting:replace({ tuple[1] }) end
    log.info('queue_vinyl: %d waiting messages indexed in %.1f s', waiting:len(), clock.monotonic() - started)
end

-- Appends a message; returns its id. vinyl's id becomes takeable once its insert is committed
-- (a crash between the two loses no message: the rebuild above finds it).
function queue_put(engine, body)
    local id = box.space['queue_' .. engine]:insert({ box.NULL, body })[1]
    if engine == 'vinyl' then waiting:insert({ id }) end
    return id
end

-- Takes the oldest message (its tuple, or nil when the queue is empty). memtx: the read and the
-- delete in one transaction; memtx does not yield between them, so two takers never get the same tuple.
local function take_oldest(space)
    local tuple = space.index.primary:min()
    if tuple ~= nil then space:delete(tuple[1]) end
    return tuple
end

local function take_key(space, id)
    local tuple = space:get(id)
    if tuple ~= nil then space:delete(id) end
    return tuple
end

function queue_take(engine)
    local space = box.space['queue_' .. engine]
    if space.engine == 'memtx' then return in_transaction(1, take_oldest, space) end
    while true do
        local head = waiting.index.primary:min()
        if head == nil then return nil end
        local id = head[1]
        waiting:delete(id) -- the claim: no yield since min(), so no other taker has this id
        local ok, tuple = pcall(take_key, space, id)
        if not ok then
            waiting:replace({ id }) -- not taken: back in line, in its place
            error(tuple)
        end
        if tuple ~= nil then return tuple end
    end
end

-- Messages waiting: memtx's len(); vinyl has no exact len() (count() scans its tombstones), so its
-- waiting ids are counted instead (messages being taken at that moment are not among them).
function queue_depth(engine)
    if engine == 'vinyl' then return waiting:len() end
    return box.space['queue_' .. engine]:len()
end

-- Empties a queue (purge-queue, before each bench repetition); returns how many messages it held.
-- truncate() drops the space's data at once, where deleting each tuple would leave vinyl a tombstone
-- per message; the sequence goes on, so ids keep growing. vinyl's waiting ids go first: a put that
-- lands between the two truncates leaves an id without a tuple, which queue_take skips, never a
-- tuple without an id, which no take would find until a restart.
function queue_purge(engine)
    local depth = queue_depth(engine)
    if engine == 'vinyl' then waiting:truncate() end
    box.space['queue_' .. engine]:truncate()
    return depth
end

-- The leased read (POST /read/tarantool-memtx?lease=30s, /ack, /nack): a message taken for a lease
-- moves, in one transaction, from its queue space into the lease space of the same engine
-- (`queue_leases_memtx`, `queue_leases_vinyl`: {id, token, ends, body}, ends in fiber.time()
-- seconds); an ack deletes it while the lease has not ended; a nack, or the reaper fiber below
-- once the lease ended, moves it back under its own id (so it is the oldest again). Lease spaces
-- are written to the WAL like the queues: a lease survives a restart, and ends on this clock.
local fiber = require('fiber')
local lease_format = {
    { name = 'id', type = 'unsigned' },
    { name = 'token', type = 'unsigned' },
    { name = 'ends', type = 'number' },
    { name = 'body', type = 'string' },
}
for _, engine in ipairs({ 'memtx', 'vinyl' }) do
    local leases = box.schema.space.create('queue_leases_' .. engine,
        { engine = engine, format = lease_format, if_not_exists = true })
    leases:create_index('primary', { parts = { 'id' }, if_not_exists = true })
    leases:create_index('ends', { parts = { 'ends', 'id' }, if_not_exists = true })
end

-- memtx: the oldest message, out of the queue and into the leases, without a yield in between.
local function lease_oldest(space, leases, token, ends)
    local tuple = space.index.primary:min()
    if tuple == nil then return nil end
    space:delete(tuple[1])
    leases:insert({ tuple[1], token, ends, tuple[2] })
    return tuple
end

local function lease_key(space, leases, id, token, ends)
    local tuple = space:get(id)
    if tuple == nil then return nil end
    space:delete(id)
    leases:insert({ id, token, ends, tuple[2] })
    return tuple
end

-- Moves a lease's message back into its queue (a nack, or a lease that ended).
local function give_back(engine, lease)
    box.space['queue_' .. engine]:replace({ lease[1], lease[4] })
    box.space['queue_leases_' .. engine]:delete(lease[1])
end

local function give_back_ended(engine)
    local leases = box.space['queue_leases_' .. engine]
    local now = fiber.time()
    local back = 0
    while true do
        local lease = leases.index.ends:min()
        if lease == nil or lease[3] > now then break end
        in_transaction(16, give_back, engine, lease)
        if engine == 'vinyl' then waiting:replace({ lease[1] }) end
        back = back + 1
    end
    return back
end

-- Takes the oldest message for lease_s seconds under the caller's token; its tuple {id, body}, or
-- nil when no message waits. Leases that ended are given back first.
function queue_lease(engine, token, lease_s)
    give_back_ended(engine)
    local space = box.space['queue_' .. engine]
    local leases = box.space['queue_leases_' .. engine]
    local ends = fiber.time() + lease_s
    if space.engine == 'memtx' then return in_transaction(1, lease_oldest, space, leases, token, ends) end
    while true do
        local head = waiting.index.primary:min()
        if head == nil then return nil end
        local id = head[1]
        waiting:delete(id) -- the claim, as in queue_take
        local ok, tuple = pcall(in_transaction, 16, lease_key, space, leases, id, token, ends)
        if not ok then
            waiting:replace({ id })
            error(tuple)
        end
        if tuple ~= nil then return tuple end
    end
end

local function end_lease(engine, id, token, back)
    local leases = box.space['queue_leases_' .. engine]
    local lease = leases:get(id)
    if lease == nil or lease[2] ~= token or lease[3] <= fiber.time() then return false end
    if back then give_back(engine, lease) else leases:delete(id) end
    return true
end

-- Acknowledges (deletes) or gives back a lease that has not ended; false when there is none.
function queue_ack(engine, id, token)
    return in_transaction(16, end_lease, engine, id, token, false)
end

function queue_nack(engine, id, token)
    local done = in_transaction(16, end_lease, engine, id, token, true)
    if done and engine == 'vinyl' then waiting:replace({ id }) end
    return done
end

-- The reaper: gives back the leases that ended, every 0.2 s, whether or not leased reads come
-- (on a writable instance: a read-only replica gets the moves through replication).
fiber.create(function()
    fiber.name('queue-lease-reaper')
    while true do
        for _, engine in ipairs({ 'memtx', 'vinyl' }) do
            if not box.info.ro then
                local ok, err = pcall(give_back_ended, engine)
                if not ok then log.warn('queue-lease-reaper (%s): %s', engine, tostring(err)) end
            end
        end
        fiber.sleep(0.2)
    end
end)

-- Key-value pairs (/v0/entity?storage=tarantool-memtx, tarantool-vinyl): a tuple {key, value} per
-- key; the value is stored as MessagePack bin, the bytes exactly as given. The service reads, replaces
-- and deletes them with plain IPROTO SELECT, REPLACE and DELETE on the primary key.
local kv_format = {
    { name = 'key', type = 'string' },
    { name = 'value', type = 'varbinary' },
}
for _, engine in ipairs({ 'memtx', 'vinyl' }) do
    local kv = box.schema.space.create('kv_' .. engine, { engine = engine, format = kv_format, if_not_exists = true })
    kv:create_index('primary', { parts = { 'key' }, if_not_exists = true })
end
