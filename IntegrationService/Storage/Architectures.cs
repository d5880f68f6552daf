using IntegrationService.Storage.Beanstalkd;
using IntegrationService.Storage.Nats;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.RabbitMq;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage;

/// <summary>
/// Every named storage architecture (<c>?storage=name</c>, and <c>/write/{name}</c> for queues), composed
/// from the stores the technology folders register (<c>AddPostgres</c>, <c>AddRedis</c>,
/// <c>AddTarantool</c>, <c>AddBeanstalkd</c>, <c>AddRabbitMq</c>, <c>AddNats</c>). Each states what it is made of, the backends it cannot
/// serve without and the caches whose loss only slows it (by health-check name). The descriptions
/// and durability statements of <c>GET /storages</c> are built from the bound options; the servers'
/// own settings among them (fsync policies and the like) describe the servers we are deployed against.
/// </summary>
public static class Architectures
{
    private const string Postgres = PostgresServiceCollectionExtensions.BackendName;
    private const string Tarantool = TarantoolHealthCheck.BackendName;

    /// <summary>
    /// Every architecture; redis-sentinel only where Redis:Sentinel is set, redis-cluster-r2 only where Redis:ClusterR2 is, nats-r3 only where Nats:R3Url is, rabbitmq-r3 only
    /// where RabbitMq:R3Endpoints is, postgres-patroni and
    /// postgres-patroni-sync only where Postgres:Patroni and Postgres:PatroniSync are (the deployment has one).
    /// </summary>
    public static IServiceCollection AddArchitectures(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddSingleton(PostgresAlone);
        services.AddSingleton(PostgresRedisCache);
        services.AddSingleton(PostgresRedisPersistent);
        services.AddSingleton(sp => TarantoolEngine(sp, "tarantool-memtx", TarantoolEngines.Memtx, "memtx engine (in memory)"));
        services.AddSingleton(sp => TarantoolEngine(sp, "tarantool-vinyl", TarantoolEngines.Vinyl, "vinyl engine (on-disk LSM tree)"));
        services.AddSingleton(RedisAofQueue);
        services.AddSingleton(RedisRdbQueue);
        services.AddSingleton(BeanstalkdQueue);
        services.AddSingleton(RabbitMqQueue);
        services.AddSingleton(NatsJetStreamQueueArchitecture);
        services.AddSingleton(RedisPersistentKv);
        services.AddSingleton(RedisClusterKv);
        if (!string.IsNullOrEmpty(configuration["Redis:Sentinel"])) services.AddSingleton(RedisSentinel);
        if (!string.IsNullOrEmpty(configuration["Redis:ClusterR2"])) services.AddSingleton(RedisClusterR2Kv);
        if (!string.IsNullOrEmpty(configuration["Nats:R3Url"])) services.AddSingleton(NatsR3QueueArchitecture);
        if (!string.IsNullOrEmpty(configuration["RabbitMq:R3Endpoints"])) services.AddSingleton(RabbitMqR3Queue);
        if (!string.IsNullOrEmpty(configuration["Postgres:Patroni"])) services.AddSingleton(sp => PostgresPatroni(sp, synchronous: false));
        if (!string.IsNullOrEmpty(configuration["Postgres:PatroniSync"])) services.AddSingleton(sp => PostgresPatroni(sp, synchronous: true));
        return services;
    }

    /// <summary>postgres: authors, items, a queue and key-value pairs, all in PostgreSQL.</summary>
    private static StorageArchitecture PostgresAlone(IServiceProvider sp) =>
        new("postgres", "PostgreSQL 15 alone", PostgresDurability(Bound<PostgresOptions>(sp)),
            sp.GetRequiredService<PostgresAuthorStore>(), sp.GetRequiredService<PostgresItemStore>(), [Postgres], [])
        {
            Queue = sp.GetRequiredService<PostgresQueueStore>(),
            Kv = sp.GetRequiredService<PostgresKvStore>(),
            Facts = PostgresFacts(Bound<PostgresOptions>(sp)),
            Shardable = true,
        };

    /// <summary>postgres-redis-cache: PostgreSQL's author and item stores behind the Redis cache.</summary>
    private static StorageArchitecture PostgresRedisCache(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        var cache = sp.GetRequiredService<RedisCache>();
        return new("postgres-redis-cache",
            $"Read-through Redis cache over PostgreSQL: a miss reads PostgreSQL and caches the answer for {redis.CacheTtlSeconds} s unless a write invalidated the key meanwhile; " +
            $"a write commits to PostgreSQL, then deletes the key. Redis: maxmemory {redis.CacheMaxMemory}, {redis.CacheMaxMemoryPolicy}.",
            $"{PostgresDurability(Bound<PostgresOptions>(sp))} The cache keeps nothing of its own (no persistence); " +
            "if it is unreachable, reads fall back to PostgreSQL and invalidations are retried until it returns.",
            new CachedAuthorStore(sp.GetRequiredService<PostgresAuthorStore>(), cache),
            new CachedItemStore(sp.GetRequiredService<PostgresItemStore>(), cache),
            [Postgres], [RedisConnections.CacheName]) { Facts = PostgresFacts(Bound<PostgresOptions>(sp)) };
    }

    /// <summary>postgres-redis-persistent: items only, their links in the persistent Redis instance, locations in PostgreSQL.</summary>
    private static StorageArchitecture PostgresRedisPersistent(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        return new("postgres-redis-persistent",
            "Item links stored only in Redis (one key per item); locations read from PostgreSQL. Items only.",
            $"Links: Redis appendonly yes, appendfsync {redis.PersistentAppendFsync} — " +
            $"{AppendFsyncLoss(redis.PersistentAppendFsync, "up to about 1 s of acknowledged writes")}; {redis.PersistentMaxMemoryPolicy}. " +
            $"Locations: PostgreSQL (synchronous_commit={Bound<PostgresOptions>(sp).SynchronousCommit}).",
            null, sp.GetRequiredService<RedisPersistentItemStore>(),
            [RedisConnections.PersistentName, Postgres], []) { Facts = AppendFsyncFacts(redis.PersistentAppendFsync) };
    }

    /// <summary>tarantool-memtx and tarantool-vinyl: authors, items and a queue in spaces of one engine.</summary>
    private static StorageArchitecture TarantoolEngine(IServiceProvider sp, string name, string engine, string engineDescription)
    {
        var connection = sp.GetRequiredService<TarantoolConnection>();
        var walMode = Bound<TarantoolOptions>(sp).WalMode;
        return new(name, $"Tarantool 2.x, {engineDescription}, WAL {(walMode == "none" ? "off" : "on")}", TarantoolDurability(walMode),
            new TarantoolAuthorStore(connection, engine), new TarantoolItemStore(connection, engine), [Tarantool], [])
        {
            Queue = new TarantoolQueueStore(connection, engine),
            Kv = new TarantoolKvStore(connection, engine),
            Facts = TarantoolFacts(walMode),
            Shardable = true,
        };
    }

    /// <summary>redis-aof: a queue in one list of the Redis instance with the append-only file.</summary>
    private static StorageArchitecture RedisAofQueue(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        return RedisQueue(sp.GetRequiredService<RedisConnections>().Aof, AppendFsyncFacts(redis.AofAppendFsync), "redis_aof",
            "A queue in one Redis list (RPUSH, LPOP) on its own instance with the append-only file.",
            $"appendonly yes, appendfsync {redis.AofAppendFsync}: " +
            $"{AppendFsyncLoss(redis.AofAppendFsync, "about the last second of acknowledged messages")}; {QueueMemory(redis)}");
    }

    /// <summary>redis-rdb: a queue in one list of the Redis instance with RDB snapshots only.</summary>
    private static StorageArchitecture RedisRdbQueue(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        // Redis starts a snapshot once more than the interval has passed, in whole Unix seconds, since
        // the last one completed, so the last completed snapshot can be the interval plus two seconds old.
        var seconds = ShortestSnapshotSeconds(redis.RdbSave);
        var snapshotMs = (seconds + 2) * 1000;
        return RedisQueue(sp.GetRequiredService<RedisConnections>().Rdb,
            new DurabilityFacts(FsyncPolicy.Snapshot, snapshotMs, Loss.SinceSnapshot, Loss.SinceSnapshot, snapshotMs), "redis_rdb",
            "A queue in one Redis list (RPUSH, LPOP) on its own instance with RDB snapshots only (the original study's settings).",
            $"save {redis.RdbSave}, no AOF: a crash of Redis or of its host loses what was written since the last snapshot " +
            $"({ShortestSnapshotInterval(redis.RdbSave)} or more: Redis starts a snapshot only once more than {ShortestSnapshotInterval(redis.RdbSave)} " +
            $"in whole seconds has passed since the last one completed, so the last completed one can be about {seconds + 2} s old); {QueueMemory(redis)}");
    }

    private static StorageArchitecture RedisQueue(RedisConnection redis, DurabilityFacts facts, string alias, string description, string durability) =>
        new(redis.Name, description, durability, null, null, [redis.Name], [])
        {
            Queue = new RedisQueueStore(redis),
            Facts = facts,
            Aliases = [alias],
        };

    /// <summary>redis-persistent: key-value pairs only, in the persistent Redis instance (the one holding item links).</summary>
    private static StorageArchitecture RedisPersistentKv(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        var connection = sp.GetRequiredService<RedisConnections>().Persistent;
        return new(RedisConnections.PersistentName,
            "Key-value pairs as Redis strings (kv:<key>) on the persistent instance. Key-value API only.",
            $"appendonly yes, appendfsync {redis.PersistentAppendFsync}: " +
            $"{AppendFsyncLoss(redis.PersistentAppendFsync, "about the last second of acknowledged writes")}; {redis.PersistentMaxMemoryPolicy}.",
            null, null, [connection.Name], [])
        {
            Kv = new RedisKvStore(connection),
            Facts = AppendFsyncFacts(redis.PersistentAppendFsync),
            Shardable = true,
        };
    }

    /// <summary>redis-cluster: key-value pairs on a Redis Cluster of three masters; the client routes each key to its slot's master.</summary>
    private static StorageArchitecture RedisClusterKv(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        var connection = sp.GetRequiredService<RedisConnections>().Cluster;
        return new(RedisConnections.ClusterName,
            "Key-value pairs as Redis strings (kv:<key>) on a Redis Cluster of three masters without replicas " +
            "(16 384 hash slots split among them); the client sends each command to the master of the key's slot. Key-value API only.",
            $"Each master: appendonly yes, appendfsync {redis.ClusterAppendFsync}: " +
            $"{AppendFsyncLoss(redis.ClusterAppendFsync, "about the last second of acknowledged writes")}. " +
            "No replicas: while a master is down, its third of the keys is unavailable (503).",
            null, null, [connection.Name], []) { Kv = new RedisKvStore(connection), Facts = AppendFsyncFacts(redis.ClusterAppendFsync) };
    }

    /// <summary>
    /// redis-sentinel: key-value pairs and a queue on a Redis primary with one asynchronous replica, three
    /// Sentinels to promote the replica; the client follows the primary through the Sentinels.
    /// </summary>
    private static StorageArchitecture RedisSentinel(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        var connection = sp.GetRequiredService<RedisConnections>().Sentinel!;
        var fsync = AppendFsyncLoss(redis.SentinelAppendFsync, "about the last second of acknowledged writes");
        return new(RedisConnections.SentinelName,
            "Key-value pairs (kv:<key>) and a queue (one list, RPUSH and LPOP) on a Redis primary with one replica, each node on its own " +
            "loopback address, and three Sentinels that promote the replica when the primary stops answering; the client asks the Sentinels " +
            "for the primary and follows them through a failover (StackExchange.Redis's Sentinel support).",
            $"Each data node: appendonly yes, appendfsync {redis.SentinelAppendFsync} — if every node crashes at once, {fsync}. " +
            "Replication is asynchronous: the primary acknowledges a write before the replica has it, so a failover loses the acknowledged " +
            "writes the replica had not received yet, and a primary cut off from the Sentinels keeps acknowledging writes that are discarded " +
            $"when it rejoins as a replica. While no primary answers (about {redis.SentinelDownAfterMs} ms of silence, then the election) writes are refused (503).",
            null, null, [connection.Name], [])
        {
            Kv = new RedisKvStore(connection),
            Queue = new RedisQueueStore(connection),
            Facts = AppendFsyncFacts(redis.SentinelAppendFsync),
            Replication = new(2, 3, ReplicationMode.Asynchronous, "redis-sentinel", redis.SentinelDownAfterMs, Loss.Unreplicated,
                NodeAddresses(connection.Endpoint),
                $"A primary and one replica, asynchronous replication; three Sentinels, quorum 2, down-after-milliseconds {redis.SentinelDownAfterMs}. " +
                "A failover loses the acknowledged writes the replica had not received."),
        };
    }

    /// <summary>
    /// redis-cluster-r2: key-value pairs on a Redis Cluster of three masters, each with one asynchronous replica; the
    /// cluster fails a master over by itself and the client follows the slots to the replica that took them.
    /// </summary>
    private static StorageArchitecture RedisClusterR2Kv(IServiceProvider sp)
    {
        var redis = Bound<RedisOptions>(sp);
        var connection = sp.GetRequiredService<RedisConnections>().ClusterR2!;
        var nodes = NodeAddresses(connection.Endpoint);
        var fsync = AppendFsyncLoss(redis.ClusterR2AppendFsync, "about the last second of acknowledged writes");
        return new(RedisConnections.ClusterR2Name,
            "Key-value pairs as Redis strings (kv:<key>) on a Redis Cluster of six nodes, each on its own loopback address: three masters " +
            "share the 16 384 hash slots and each has one replica. The client sends each command to the master of the key's slot and, when a " +
            "replica has taken a master's slots, follows the cluster's redirections to it (StackExchange.Redis's cluster support). Key-value API only.",
            $"Each node: appendonly yes, appendfsync {redis.ClusterR2AppendFsync} — if every node crashes at once, {fsync}. " +
            "Replication is asynchronous: a master acknowledges a write before its replica has it, so a failover loses the acknowledged writes " +
            "the replica had not received yet, and a master cut off from the other masters keeps acknowledging writes until it notices " +
            $"(cluster-node-timeout, {redis.ClusterR2NodeTimeoutMs} ms), which are discarded when it rejoins as a replica. While a shard has no " +
            $"master (about {redis.ClusterR2NodeTimeoutMs} ms of silence, then the replica's election) its third of the keys is refused (503); " +
            "the other shards keep answering.",
            null, null, [connection.Name], [])
        {
            Kv = new RedisKvStore(connection),
            Facts = AppendFsyncFacts(redis.ClusterR2AppendFsync),
            Replication = new(6, 3, ReplicationMode.Asynchronous, "redis-cluster", redis.ClusterR2NodeTimeoutMs, Loss.Unreplicated, nodes,
                $"Three shards, each a master and one replica, asynchronous replication; the masters vote a failed master's replica in " +
                $"(a majority of the three), cluster-node-timeout {redis.ClusterR2NodeTimeoutMs}. A failover loses the acknowledged writes the replica had not received."),
        };
    }

    /// <summary>
    /// The node addresses of a StackExchange.Redis endpoint (<c>host:port,host:port,option=value</c>), without
    /// ports and without the client's options: the catalogue's <c>replication.nodes</c>.
    /// </summary>
    private static string[] NodeAddresses(string endpoint) =>
        [.. endpoint.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .Where(part => !part.Contains('='))
            .Select(part => part.LastIndexOf(':') is var colon and > 0 ? part[..colon] : part)];

    /// <summary>beanstalkd: a queue in beanstalkd's default tube (or the configured one).</summary>
    private static StorageArchitecture BeanstalkdQueue(IServiceProvider sp)
    {
        var fsyncMs = Bound<BeanstalkdOptions>(sp).FsyncIntervalMs;
        return new(BeanstalkdQueueStore.BackendName,
            "Beanstalkd 1.12 with its binlog: put to write; reserve-with-timeout 0, then delete, to read.",
            $"{BeanstalkdBinlog(fsyncMs)} " +
            "The original study ran beanstalkd without a binlog: nothing survived a restart.",
            null, null, [BeanstalkdQueueStore.BackendName], [])
        {
            Queue = sp.GetRequiredService<BeanstalkdQueueStore>(),
            // The binlog is written before the answer; only its fsync waits for the interval.
            Facts = fsyncMs == 0 ? DurabilityFacts.Synchronous : new(FsyncPolicy.Periodic, fsyncMs, Loss.Nothing, Loss.Window, fsyncMs),
        };
    }

    /// <summary>rabbitmq: a queue in one RabbitMQ quorum queue.</summary>
    private static StorageArchitecture RabbitMqQueue(IServiceProvider sp)
    {
        var rabbitMq = Bound<RabbitMqOptions>(sp);
        return new(RabbitMqConnection.BackendName,
            $"RabbitMQ 3.10, one durable quorum queue ('{rabbitMq.Queue}', x-queue-type=quorum) on one node: " +
            "publish, awaiting the publisher confirm, to write; to read, the reads waiting share a take on one channel " +
            $"(at most {rabbitMq.QueueTakesInFlight} at once): basic.get with auto-ack after basic.get, up to {RabbitMqQueueStore.MaxBatch} or until the queue is empty " +
            "(the broker removes a message as it sends it: at most once, one Raft command per read).",
            "A quorum queue appends each message to its Raft log and fsyncs the log before the publisher confirm " +
            "(raft.wal_sync_method=datasync, the default): neither a crash of RabbitMQ nor of its host loses a confirmed message. " +
            "One node, no replicas: while it is down the queue is unavailable (503). A leased read's delivery stays unacknowledged " +
            "until /ack, and is requeued if its channel closes first.",
            null, null, [RabbitMqConnection.BackendName], [])
        {
            Queue = sp.GetRequiredService<RabbitMqQueueStore>(),
            Facts = DurabilityFacts.Synchronous,
        };
    }

    /// <summary>
    /// rabbitmq-r3: the same queue as rabbitmq in a quorum queue with a member on each of three nodes, confirmed once a
    /// majority has a message; the client follows the cluster with the RabbitMQ client's own endpoint list.
    /// </summary>
    private static StorageArchitecture RabbitMqR3Queue(IServiceProvider sp)
    {
        var rabbitMq = Bound<RabbitMqOptions>(sp);
        const string name = RabbitMqConnection.R3BackendName;
        var nodes = rabbitMq.R3Nodes();
        return new(name,
            $"RabbitMQ 3.10 on {nodes.Count} nodes, each taking clients on its own loopback address: one durable quorum queue ('{rabbitMq.Queue}', " +
            $"x-quorum-initial-group-size={nodes.Count}) with a member on each node, read and written as on rabbitmq. The client is given every node, " +
            "connects to one and recovers its connection on another when it fails (the RabbitMQ client's endpoint list); the queue's leader may be " +
            "any node, and a node that is not forwards to it.",
            $"A publisher confirm comes once a majority ({nodes.Count / 2 + 1} of {nodes.Count}) has the message in its Raft log, fsynced (raft.wal_sync_method=datasync): a crash, " +
            "stall or partition of one node loses no confirmed message, and the member elected leader has every confirmed one (Raft). While the " +
            "queue has no leader (until its members notice the old one gone and elect another) writes and reads time out (503); a client " +
            "connected to a node cut off from the majority gets 503 until the partition is over, when that node restarts its RabbitMQ application " +
            "(cluster_partition_handling=autoheal, net_ticktime 10 s) and the client moves to another node. If every node crashes at once, each keeps what it fsynced, so nothing confirmed is lost. " +
            "GET /read removes a message with a Raft command the majority has committed before the message is sent, so it stays at most once " +
            "through a failover; a leased read's delivery is requeued if its channel closes first.",
            null, null, [name], [])
        {
            Queue = sp.GetRequiredKeyedService<RabbitMqQueueStore>(name),
            Facts = DurabilityFacts.Synchronous,
            Replication = new(nodes.Count, nodes.Count, ReplicationMode.Quorum, "rabbitmq-quorum-queue-raft", RabbitMqR3DetectionMs, Loss.Nothing,
                [.. nodes.Select(node => node.HostName)],
                $"{nodes.Count} nodes, each with a member of the quorum queue; a message is confirmed once a majority has it, and a new leader is elected " +
                "among the members that have every confirmed message (Raft). A failover of one node loses nothing confirmed."),
        };
    }

    /// <summary>nats-jetstream: a queue in a JetStream stream (file storage, work-queue retention) read through a durable pull consumer.</summary>
    private static StorageArchitecture NatsJetStreamQueueArchitecture(IServiceProvider sp)
    {
        var nats = Bound<NatsOptions>(sp);
        return new("nats-jetstream",
            $"NATS JetStream (nats-server 2.9): stream '{nats.Stream}' with file storage and work-queue retention, durable pull consumer '{nats.Consumer}'; " +
            "publish, awaiting the PubAck, to write; to read, the reads waiting share a take " +
            $"(at most {nats.QueueTakesInFlight} at once): one fetch without waiting of as many messages, up to {NatsQueueStore.MaxBatch}, " +
            "then an ack of each (double ack), all answered before any of those reads answers.",
            $"{NatsSync(nats.SyncIntervalMs)} A read whose ack is lost (the service or the connection fails between fetch and ack) " +
            $"is delivered again after the consumer's ack wait ({nats.AckWaitSeconds} s). One server, no replicas: while it is down the queue is unavailable (503).",
            null, null, [NatsJetStreamQueue.BackendName], [])
        {
            Queue = sp.GetRequiredService<NatsQueueStore>(),
            Facts = NatsFacts(nats.SyncIntervalMs),
        };
    }

    /// <summary>
    /// nats-r3: the same queue as nats-jetstream in a stream with three replicas on three nodes, acknowledged once a
    /// majority has a message; the client follows the cluster with NATS.Net's own server list.
    /// </summary>
    private static StorageArchitecture NatsR3QueueArchitecture(IServiceProvider sp)
    {
        var nats = Bound<NatsOptions>(sp);
        const string name = NatsJetStreamQueue.R3BackendName;
        return new(name,
            $"NATS JetStream (nats-server 2.9) on three nodes, each on its own loopback address: stream '{nats.Stream}' with three replicas, file storage and " +
            $"work-queue retention, durable pull consumer '{nats.Consumer}', read and written as on nats-jetstream. The client is given every node, connects to one " +
            "and moves to another when it fails; the stream's leader may be any node (NATS.Net's server list).",
            $"A PubAck comes once two of the three nodes have the message (JetStream's Raft): a crash, stall or partition of one node loses no acknowledged message; " +
            $"while the stream has no leader (a follower campaigns 4 to 9 s after it last heard the leader) writes are refused (503). {NatsSync(nats.SyncIntervalMs)} " +
            "That holds for each node: if every node crashes at once, what none had fsynced can be lost. " +
            $"A read whose ack is lost is delivered again after the consumer's ack wait ({nats.AckWaitSeconds} s). " +
            "GET /read is at-most-once only until a failover: it hands a message out once the consumer's leader has confirmed its ack, " +
            "but a leader cut off from the other nodes confirms acks its Raft group never commits, and the leader elected in its place " +
            "delivers those messages again.",
            null, null, [name], [])
        {
            Queue = sp.GetRequiredKeyedService<NatsQueueStore>(name),
            Delivery = new(QueueDelivery.AtMostOnceUntilFailover, QueueDelivery.AtLeastOnce),
            Facts = NatsFacts(nats.SyncIntervalMs),
            Replication = new(3, 3, ReplicationMode.Quorum, "nats-jetstream-raft", NatsR3ElectionMs, Loss.Nothing,
                [.. nats.R3Nodes().Select(node => node.Host)],
                "Three nodes, each stream replica on its own node; a message is acknowledged once a majority (2) has it, and a new leader is elected " +
                "among the nodes that have every acknowledged message (Raft). A failover of one node loses nothing acknowledged."),
        };
    }

    /// <summary>
    /// postgres-patroni(-sync): key-value pairs in PostgreSQL on three nodes, each run by Patroni, with one etcd holding the
    /// leader key; the client follows the primary with Npgsql's multiple hosts (Target Session Attributes=primary).
    /// </summary>
    private static StorageArchitecture PostgresPatroni(IServiceProvider sp, bool synchronous)
    {
        var name = synchronous ? PostgresServiceCollectionExtensions.PatroniSyncName : PostgresServiceCollectionExtensions.PatroniName;
        var replication = synchronous
            ? "Patroni's synchronous mode: one replica is named synchronous and a commit returns once it has the WAL, so the replica " +
              "Patroni may promote has every acknowledged write (a failover of the primary loses nothing acknowledged). A commit " +
              "cancelled while it waits for the replica (a 503 here) may still be visible, and kept or lost by the failover."
            : "Asynchronous streaming replication: a commit returns before any replica has it, so a failover loses the acknowledged " +
              "writes the promoted replica had not received (Patroni promotes only a replica at most 1 MiB of WAL behind), and a " +
              "primary cut off from etcd keeps acknowledging writes until it demotes itself, which the promoted replica never gets.";
        return new(name,
            $"PostgreSQL 15 on three nodes, each on its own loopback address and run by Patroni 3.0, with one etcd 3.4 holding the leader key " +
            $"({(synchronous ? "synchronous" : "asynchronous")} streaming replication). The client is given every node and finds the primary " +
            "(Npgsql's multiple hosts, Target Session Attributes=primary); a node found not to be the primary is asked again after a second.",
            $"Each node: {PostgresDurability(Bound<PostgresOptions>(sp))} {replication} While no primary answers (the leader key expires " +
            $"{PatroniTtlMs / 1000} s after its Patroni last renewed it, then a replica is promoted) writes are refused (503).",
            null, null, [name], [])
        {
            Kv = sp.GetRequiredKeyedService<PostgresKvStore>(name),
            Facts = DurabilityFacts.Synchronous,
            Replication = new(3, 1, synchronous ? ReplicationMode.Synchronous : ReplicationMode.Asynchronous, "patroni-etcd", PatroniTtlMs,
                synchronous ? Loss.Nothing : Loss.Unreplicated, [.. PortTable.PatroniNodes(synchronous)],
                $"Three PostgreSQL nodes, a primary and two replicas; Patroni on each races for the leader key in one etcd (ttl {PatroniTtlMs / 1000} s, " +
                $"loop_wait 2 s, infra/config/patroni.yml). {replication}"),
        };
    }

    /// <summary>Patroni's leader key ttl (infra/config/patroni.yml): how long a primary whose Patroni is gone keeps the key.</summary>
    private const int PatroniTtlMs = 10_000;

    /// <summary>
    /// How long rabbitmq-r3's nodes take to count a silent node gone, at the most: net_ticktime (infra/config/rabbitmq-r3.conf)
    /// is 10 s, and a node counts another gone after 0.75 to 1.25 times it; the quorum queue's members may elect a new
    /// leader sooner (they watch each other every second).
    /// </summary>
    private const int RabbitMqR3DetectionMs = 12_500;

    /// <summary>How long a nats-server 2.9 follower waits for its leader before it campaigns, at the least (its Raft's election timeout, 4–9 s).</summary>
    private const int NatsR3ElectionMs = 4000;

    // The servers' settings in words: what an acknowledged write survives under each (per the servers' manuals).

    private static string PostgresDurability(PostgresOptions postgres) =>
        $"synchronous_commit={postgres.SynchronousCommit}, fsync={(postgres.Fsync ? "on" : "off")}: " + (
            !postgres.Fsync ? "nothing is forced to disk, so a host crash can lose acknowledged writes and corrupt the database."
            : postgres.SynchronousCommit == "off" ? "an acknowledged write reaches the WAL on disk within three times wal_writer_delay " +
                "(600 ms by default), so a crash of PostgreSQL or of its host can lose the last ones; the database stays consistent."
            : "every acknowledged write is flushed to the WAL on disk.");

    private static string TarantoolDurability(string walMode) => walMode switch
    {
        "fsync" => "wal_mode=fsync: every transaction is written to the WAL and fsynced before the answer " +
            "(neither a process crash nor a host crash loses anything acknowledged).",
        "none" => "wal_mode=none: no WAL, only snapshots are written " +
            "(a process crash or a host crash loses everything written since the last snapshot).",
        _ => $"wal_mode={walMode}: every transaction is written to the WAL before the answer, not fsynced per commit " +
            "(a process crash loses nothing acknowledged; a host crash can lose what the kernel had not yet written out: " +
            "on Linux, up to about 35 s, pages dirty for 30 s written back by a flusher that runs every 5 s).",
    };

    // The same statements as data (DurabilityFacts), for the tools that check them.

    private static DurabilityFacts PostgresFacts(PostgresOptions postgres) =>
        !postgres.Fsync ? new(FsyncPolicy.Never, null, Loss.Nothing, Loss.Anything, null)
        // wal_writer_delay is 200 ms by default; an asynchronous commit is flushed within three of them.
        : postgres.SynchronousCommit == "off" ? new(FsyncPolicy.Periodic, 600, Loss.Window, Loss.Window, 600)
        : DurabilityFacts.Synchronous;

    private static DurabilityFacts TarantoolFacts(string walMode) => walMode switch
    {
        "fsync" => DurabilityFacts.Synchronous,
        // Snapshots are taken by checkpoint_interval (an hour by default) or by box.snapshot().
        "none" => new(FsyncPolicy.Snapshot, null, Loss.SinceSnapshot, Loss.SinceSnapshot, null),
        _ => KernelWriteback,
    };

    /// <summary>Redis writes the AOF before it answers, so a kill -9 loses nothing; only the fsync waits.</summary>
    private static DurabilityFacts AppendFsyncFacts(string appendFsync) => appendFsync switch
    {
        "always" => DurabilityFacts.Synchronous,
        "no" => KernelWriteback,
        _ => new(FsyncPolicy.Periodic, 1000, Loss.Nothing, Loss.Window, 1000),
    };

    /// <summary>
    /// Written before the answer, flushed by the kernel's writeback: pages dirty for dirty_expire_centisecs (30 s by default)
    /// are written by a flusher that wakes every dirty_writeback_centisecs (5 s), so a power loss can take up to 35 s of them.
    /// </summary>
    private static readonly DurabilityFacts KernelWriteback = new(FsyncPolicy.Kernel, null, Loss.Nothing, Loss.Window, 35_000);

    /// <summary>What a host crash can lose under a Redis instance's appendfsync (everysecLoss: what it loses under everysec).</summary>
    private static string AppendFsyncLoss(string appendFsync, string everysecLoss) => appendFsync switch
    {
        "always" => "a host crash loses nothing acknowledged",
        "no" => "a host crash can lose what the kernel had not yet written out (on Linux, up to about 35 s)",
        _ => $"a host crash can lose {everysecLoss}",
    };

    /// <summary>The shortest interval of Redis <c>save</c> rules ("seconds changes" pairs), in words.</summary>
    private static string ShortestSnapshotInterval(string save)
    {
        var seconds = ShortestSnapshotSeconds(save);
        return seconds == 1 ? "a second" : $"{seconds} seconds";
    }

    private static int ShortestSnapshotSeconds(string save)
    {
        var parts = save.Split(' ');
        var seconds = int.MaxValue;
        for (var i = 0; i < parts.Length; i += 2) seconds = Math.Min(seconds, int.Parse(parts[i]));
        return seconds;
    }

    /// <summary>What a full queue instance does under its maxmemory-policy (the queue's list has no TTL).</summary>
    private static string QueueMemory(RedisOptions redis) =>
        $"{redis.QueueMaxMemoryPolicy} with maxmemory {redis.QueueMaxMemory}: " + (
            redis.QueueMaxMemoryPolicy.StartsWith("allkeys-", StringComparison.Ordinal)
                ? "a full queue evicts keys, its list among them: messages are dropped silently (as in the original study, which used allkeys-lru)."
                : "a full queue refuses writes (503) instead of dropping messages (the original study used allkeys-lru).");

    private static string BeanstalkdBinlog(int fsyncIntervalMs) => fsyncIntervalMs == 0
        ? "Binlog on (-b), fsynced after every write (-f 0): neither a crash of beanstalkd nor of its host loses an acknowledged message."
        : $"Binlog on (-b), fsynced at most once {(fsyncIntervalMs == 1000 ? "a second" : $"every {fsyncIntervalMs} ms")} (-f {fsyncIntervalMs}): " +
          $"a host crash can lose about the last {(fsyncIntervalMs == 1000 ? "second" : $"{fsyncIntervalMs} ms")} of acknowledged messages, " +
          "a crash of beanstalkd alone loses none.";

    // The server writes a message to its block file from a flusher that gathers writes for up to about 8 ms
    // after the PubAck (its filestore's maxFlushWait), so even a kill -9 can lose that much; each node of nats-r3 alike.
    // A kill's window is stated as NatsKillWindowMs, a bound with room for a flusher the scheduler runs late, which the
    // crash tester checks; a power loss's is the fsync interval.
    private static DurabilityFacts NatsFacts(int syncIntervalMs) => syncIntervalMs == 0
        ? DurabilityFacts.Synchronous
        : new(FsyncPolicy.Periodic, syncIntervalMs, Loss.Window, Loss.Window, syncIntervalMs, Math.Min(NatsKillWindowMs, syncIntervalMs));

    /// <summary>What a kill -9 of nats-server is stated to lose at most: the last second of acknowledged messages.</summary>
    internal const int NatsKillWindowMs = 1000;

    private static string NatsSync(int syncIntervalMs) => syncIntervalMs == 0
        ? "Stream files fsynced after every message (sync_interval: always, nats-server 2.10 and later): neither a crash of nats-server nor of its host loses an acknowledged message."
        : $"Stream files fsynced every {(syncIntervalMs % 60_000 == 0 ? $"{syncIntervalMs / 60_000} minutes" : $"{syncIntervalMs} ms")} " +
          "(nats-server 2.9's fixed interval; 2.10 added sync_interval): a host crash can lose the acknowledged messages of that long; " +
          "a crash of nats-server alone can lose the last few milliseconds of them (written to the file up to 8 ms after the PubAck; " +
          $"stated as the last {NatsKillWindowMs} ms, the bound the crash tester checks).";

    private static T Bound<T>(IServiceProvider sp) where T : class => sp.GetRequiredService<IOptions<T>>().Value;
}
