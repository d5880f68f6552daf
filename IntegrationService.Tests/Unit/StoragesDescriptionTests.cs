using IntegrationService.Http;
using IntegrationService.Storage;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// <c>GET /storages</c> as the service's own registrations compose it (no server is contacted: the
/// stores are built, never called, and the host is not started).
/// </summary>
public sealed class StoragesDescriptionTests
{
    private const string PostgresDurability = "synchronous_commit=on, fsync=on: every acknowledged write is flushed to the WAL on disk.";
    private const string QueueMemory = "noeviction with maxmemory 1gb: a full queue refuses writes (503) instead of dropping messages (the original study used allkeys-lru).";
    private const string TarantoolDurability =
        "wal_mode=write: every transaction is written to the WAL before the answer, not fsynced per commit " +
        "(a process crash loses nothing acknowledged; a host crash can lose what the kernel had not yet written out: " +
        "on Linux, up to about 35 s, pages dirty for 30 s written back by a flusher that runs every 5 s).";

    private sealed record Expected(string Name, string Description, string Durability, string[] Serves, bool IsDefault);

    /// <summary>The answer with the default options, as it was before the architectures were composed in one place.</summary>
    private static readonly Expected[] Defaults =
    [
        new("beanstalkd",
            "Beanstalkd 1.12 with its binlog: put to write; reserve-with-timeout 0, then delete, to read.",
            "Binlog on (-b), fsynced at most once a second (-f 1000): a host crash can lose about the last second of acknowledged " +
            "messages, a crash of beanstalkd alone loses none. The original study ran beanstalkd without a binlog: nothing survived a restart.",
            ["Queue"], false),
        new("nats-jetstream",
            "NATS JetStream (nats-server 2.9): stream 'INTEGRATION' with file storage and work-queue retention, durable pull consumer 'integration'; " +
            "publish, awaiting the PubAck, to write; to read, the reads waiting share a take (at most 2 at once): " +
            "one fetch without waiting of as many messages, up to 64, then an ack of each (double ack), all answered before any of those reads answers.",
            "Stream files fsynced every 2 minutes (nats-server 2.9's fixed interval; 2.10 added sync_interval): a host crash can lose the acknowledged messages of that long; " +
            "a crash of nats-server alone can lose the last few milliseconds of them (written to the file up to 8 ms after the PubAck; " +
            "stated as the last 1000 ms, the bound the crash tester checks). " +
            "A read whose ack is lost (the service or the connection fails between fetch and ack) is delivered again after the consumer's ack wait (30 s). " +
            "One server, no replicas: while it is down the queue is unavailable (503).",
            ["Queue"], false),
        new("nats-r3",
            "NATS JetStream (nats-server 2.9) on three nodes, each on its own loopback address: stream 'INTEGRATION' with three replicas, file storage and " +
            "work-queue retention, durable pull consumer 'integration', read and written as on nats-jetstream. The client is given every node, connects to one " +
            "and moves to another when it fails; the stream's leader may be any node (NATS.Net's server list).",
            "A PubAck comes once two of the three nodes have the message (JetStream's Raft): a crash, stall or partition of one node loses no acknowledged message; " +
            "while the stream has no leader (a follower campaigns 4 to 9 s after it last heard the leader) writes are refused (503). " +
            "Stream files fsynced every 2 minutes (nats-server 2.9's fixed interval; 2.10 added sync_interval): a host crash can lose the acknowledged messages of that long; " +
            "a crash of nats-server alone can lose the last few milliseconds of them (written to the file up to 8 ms after the PubAck; " +
            "stated as the last 1000 ms, the bound the crash tester checks). " +
            "That holds for each node: if every node crashes at once, what none had fsynced can be lost. " +
            "A read whose ack is lost is delivered again after the consumer's ack wait (30 s). " +
            "GET /read is at-most-once only until a failover: it hands a message out once the consumer's leader has confirmed its ack, " +
            "but a leader cut off from the other nodes confirms acks its Raft group never commits, and the leader elected in its place " +
            "delivers those messages again.",
            ["Queue"], false),
        new("postgres", "PostgreSQL 15 alone", PostgresDurability, ["Author", "Item", "Queue", "KeyValue"], true),
        new("postgres-patroni",
            "PostgreSQL 15 on three nodes, each on its own loopback address and run by Patroni 3.0, with one etcd 3.4 holding the leader key " +
            "(asynchronous streaming replication). The client is given every node and finds the primary (Npgsql's multiple hosts, " +
            "Target Session Attributes=primary); a node found not to be the primary is asked again after a second.",
            "Each node: " + PostgresDurability + " Asynchronous streaming replication: a commit returns before any replica has it, so a failover loses the acknowledged " +
            "writes the promoted replica had not received (Patroni promotes only a replica at most 1 MiB of WAL behind), and a primary cut off from etcd keeps " +
            "acknowledging writes until it demotes itself, which the promoted replica never gets. While no primary answers (the leader key expires 10 s after " +
            "its Patroni last renewed it, then a replica is promoted) writes are refused (503).",
            ["KeyValue"], false),
        new("postgres-patroni-sync",
            "PostgreSQL 15 on three nodes, each on its own loopback address and run by Patroni 3.0, with one etcd 3.4 holding the leader key " +
            "(synchronous streaming replication). The client is given every node and finds the primary (Npgsql's multiple hosts, " +
            "Target Session Attributes=primary); a node found not to be the primary is asked again after a second.",
            "Each node: " + PostgresDurability + " Patroni's synchronous mode: one replica is named synchronous and a commit returns once it has the WAL, so the " +
            "replica Patroni may promote has every acknowledged write (a failover of the primary loses nothing acknowledged). A commit cancelled while it waits " +
            "for the replica (a 503 here) may still be visible, and kept or lost by the failover. While no primary answers (the leader key expires 10 s after " +
            "its Patroni last renewed it, then a replica is promoted) writes are refused (503).",
            ["KeyValue"], false),
        new("postgres-redis-cache",
            "Read-through Redis cache over PostgreSQL: a miss reads PostgreSQL and caches the answer for 3600 s unless a write invalidated the key meanwhile; " +
            "a write commits to PostgreSQL, then deletes the key. Redis: maxmemory 256mb, allkeys-lru.",
            PostgresDurability + " The cache keeps nothing of its own (no persistence); if it is unreachable, reads fall back to PostgreSQL and invalidations are retried until it returns.",
            ["Author", "Item"], false),
        new("postgres-redis-persistent",
            "Item links stored only in Redis (one key per item); locations read from PostgreSQL. Items only.",
            "Links: Redis appendonly yes, appendfsync everysec — a host crash can lose up to about 1 s of acknowledged writes; noeviction. Locations: PostgreSQL (synchronous_commit=on).",
            ["Item"], false),
        new("rabbitmq",
            "RabbitMQ 3.10, one durable quorum queue ('integration', x-queue-type=quorum) on one node: " +
            "publish, awaiting the publisher confirm, to write; to read, the reads waiting share a take on one channel (at most 16 at once): " +
            "basic.get with auto-ack after basic.get, up to 16 or until the queue is empty (the broker removes a message as it sends it: at most once, one Raft command per read).",
            "A quorum queue appends each message to its Raft log and fsyncs the log before the publisher confirm " +
            "(raft.wal_sync_method=datasync, the default): neither a crash of RabbitMQ nor of its host loses a confirmed message. " +
            "One node, no replicas: while it is down the queue is unavailable (503). A leased read's delivery stays unacknowledged " +
            "until /ack, and is requeued if its channel closes first.",
            ["Queue"], false),
        new("rabbitmq-r3",
            "RabbitMQ 3.10 on 3 nodes, each taking clients on its own loopback address: one durable quorum queue ('integration', " +
            "x-quorum-initial-group-size=3) with a member on each node, read and written as on rabbitmq. The client is given every node, " +
            "connects to one and recovers its connection on another when it fails (the RabbitMQ client's endpoint list); the queue's leader may be " +
            "any node, and a node that is not forwards to it.",
            "A publisher confirm comes once a majority (2 of 3) has the message in its Raft log, fsynced (raft.wal_sync_method=datasync): a crash, " +
            "stall or partition of one node loses no confirmed message, and the member elected leader has every confirmed one (Raft). While the " +
            "queue has no leader (until its members notice the old one gone and elect another) writes and reads time out (503); a client " +
            "connected to a node cut off from the majority gets 503 until the partition is over, when that node restarts its RabbitMQ application " +
            "(cluster_partition_handling=autoheal, net_ticktime 10 s) and the client moves to another node. If every node crashes at once, each keeps what it fsynced, so nothing confirmed is lost. " +
            "GET /read removes a message with a Raft command the majority has committed before the message is sent, so it stays at most once " +
            "through a failover; a leased read's delivery is requeued if its channel closes first.",
            ["Queue"], false),
        new("redis-aof",
            "A queue in one Redis list (RPUSH, LPOP) on its own instance with the append-only file.",
            "appendonly yes, appendfsync everysec: a host crash can lose about the last second of acknowledged messages; " + QueueMemory,
            ["Queue"], false),
        new("redis-cluster",
            "Key-value pairs as Redis strings (kv:<key>) on a Redis Cluster of three masters without replicas " +
            "(16 384 hash slots split among them); the client sends each command to the master of the key's slot. Key-value API only.",
            "Each master: appendonly yes, appendfsync everysec: a host crash can lose about the last second of acknowledged writes. " +
            "No replicas: while a master is down, its third of the keys is unavailable (503).",
            ["KeyValue"], false),
        new("redis-cluster-r2",
            "Key-value pairs as Redis strings (kv:<key>) on a Redis Cluster of six nodes, each on its own loopback address: three masters " +
            "share the 16 384 hash slots and each has one replica. The client sends each command to the master of the key's slot and, when a " +
            "replica has taken a master's slots, follows the cluster's redirections to it (StackExchange.Redis's cluster support). Key-value API only.",
            "Each node: appendonly yes, appendfsync everysec — if every node crashes at once, a host crash can lose about the last second of acknowledged writes. " +
            "Replication is asynchronous: a master acknowledges a write before its replica has it, so a failover loses the acknowledged writes " +
            "the replica had not received yet, and a master cut off from the other masters keeps acknowledging writes until it notices " +
            "(cluster-node-timeout, 2000 ms), which are discarded when it rejoins as a replica. While a shard has no " +
            "master (about 2000 ms of silence, then the replica's election) its third of the keys is refused (503); the other shards keep answering.",
            ["KeyValue"], false),
        new("redis-persistent",
            "Key-value pairs as Redis strings (kv:<key>) on the persistent instance. Key-value API only.",
            "appendonly yes, appendfsync everysec: a host crash can lose about the last second of acknowledged writes; noeviction.",
            ["KeyValue"], false),
        new("redis-rdb",
            "A queue in one Redis list (RPUSH, LPOP) on its own instance with RDB snapshots only (the original study's settings).",
            "save 1 1, no AOF: a crash of Redis or of its host loses what was written since the last snapshot (a second or more: " +
            "Redis starts a snapshot only once more than a second in whole seconds has passed since the last one completed, so the last completed one can be about 3 s old); " + QueueMemory,
            ["Queue"], false),
        new("redis-sentinel",
            "Key-value pairs (kv:<key>) and a queue (one list, RPUSH and LPOP) on a Redis primary with one replica, each node on its own " +
            "loopback address, and three Sentinels that promote the replica when the primary stops answering; the client asks the Sentinels " +
            "for the primary and follows them through a failover (StackExchange.Redis's Sentinel support).",
            "Each data node: appendonly yes, appendfsync everysec — if every node crashes at once, a host crash can lose about the last second of acknowledged writes. " +
            "Replication is asynchronous: the primary acknowledges a write before the replica has it, so a failover loses the acknowledged " +
            "writes the replica had not received yet, and a primary cut off from the Sentinels keeps acknowledging writes that are discarded " +
            "when it rejoins as a replica. While no primary answers (about 2000 ms of silence, then the election) writes are refused (503).",
            ["Queue", "KeyValue"], false),
        new("tarantool-memtx", "Tarantool 2.x, memtx engine (in memory), WAL on", TarantoolDurability, ["Author", "Item", "Queue", "KeyValue"], false),
        new("tarantool-vinyl", "Tarantool 2.x, vinyl engine (on-disk LSM tree), WAL on", TarantoolDurability, ["Author", "Item", "Queue", "KeyValue"], false),
    ];

    [Fact]
    public async Task DefaultOptionsGiveThePinnedArchitectures()
    {
        var storages = await StoragesAsync([]);

        Assert.Equal(Defaults.Select(d => d.Name), storages.Select(s => s.Name));
        for (var i = 0; i < Defaults.Length; i++)
        {
            Assert.Equal(Defaults[i].Description, storages[i].Description);
            Assert.Equal(Defaults[i].Durability, storages[i].Durability.Text);
            Assert.Equal(Defaults[i].Serves, storages[i].Serves);
            Assert.Equal(Defaults[i].IsDefault, storages[i].IsDefault);
        }
    }

    [Fact]
    public async Task TheCacheTtlOptionChangesTheCacheDescription()
    {
        var storages = await StoragesAsync(new() { ["Redis:CacheTtlSeconds"] = "60" });

        Assert.Contains("caches the answer for 60 s unless", Single(storages, "postgres-redis-cache").Description);
    }

    [Fact]
    public async Task TheTakesInFlightOptionsChangeTheBrokersDescriptions()
    {
        var storages = await StoragesAsync(new() { ["RabbitMq:QueueTakesInFlight"] = "8", ["Nats:QueueTakesInFlight"] = "3" });

        Assert.Contains("share a take on one channel (at most 8 at once)", Single(storages, "rabbitmq").Description);
        Assert.Contains("share a take (at most 3 at once)", Single(storages, "nats-jetstream").Description);
    }

    [Fact]
    public async Task TheServersSettingsOptionsChangeTheDurabilityStatements()
    {
        var storages = await StoragesAsync(new()
        {
            ["Postgres:SynchronousCommit"] = "off",
            ["Redis:AofAppendFsync"] = "always",
            ["Redis:RdbSave"] = "900 1 300 10",
            ["Tarantool:WalMode"] = "fsync",
            ["Beanstalkd:FsyncIntervalMs"] = "50",
        });

        Assert.StartsWith("synchronous_commit=off, fsync=on: an acknowledged write reaches the WAL on disk within", Single(storages, "postgres").Durability.Text);
        Assert.EndsWith("Locations: PostgreSQL (synchronous_commit=off).", Single(storages, "postgres-redis-persistent").Durability.Text);
        Assert.StartsWith("appendonly yes, appendfsync always: a host crash loses nothing acknowledged;", Single(storages, "redis-aof").Durability.Text);
        Assert.Contains("since the last snapshot (300 seconds or more: ", Single(storages, "redis-rdb").Durability.Text);
        Assert.All([Single(storages, "tarantool-memtx"), Single(storages, "tarantool-vinyl")],
            s => Assert.StartsWith("wal_mode=fsync: every transaction is written to the WAL and fsynced", s.Durability.Text));
        Assert.StartsWith("Binlog on (-b), fsynced at most once every 50 ms (-f 50): a host crash can lose about the last 50 ms", Single(storages, "beanstalkd").Durability.Text);
    }

    [Fact]
    public async Task EveryArchitectureNamesTheServersItRunsOnAndStatesItsDurabilityAsData()
    {
        var storages = await StoragesAsync([]);

        var servers = storages.ToDictionary(s => s.Name, s => string.Join(",", s.Servers.Concat(s.Caches)));
        Assert.Equal("postgres,redis-cache", servers["postgres-redis-cache"]);
        Assert.Equal("tarantool", servers["tarantool-vinyl"]);
        Assert.Equal("redis-rdb", servers["redis-rdb"]);
        var facts = storages.ToDictionary(s => s.Name, s => $"{s.Durability.Fsync} {s.Durability.ProcessCrash} {s.Durability.PowerLoss} {s.Durability.LossWindowMs}" +
            (s.Durability.ProcessCrashWindowMs is { } kill ? $" kill {kill}" : ""));
        Assert.Equal("per-commit nothing nothing ", facts["postgres"]);
        Assert.Equal("periodic nothing window 1000", facts["redis-aof"]);
        Assert.Equal("snapshot since-snapshot since-snapshot 3000", facts["redis-rdb"]);
        Assert.Equal("periodic nothing window 1000", facts["beanstalkd"]);
        Assert.Equal("kernel nothing window 35000", facts["tarantool-memtx"]);
        Assert.Equal(["redis_aof"], Single(storages, "redis-aof").Aliases);
        Assert.Equal("per-commit nothing nothing ", facts["rabbitmq"]);
        // A kill loses what the flusher had not written yet (stated as the last second), a power loss what was not fsynced.
        Assert.Equal("periodic window window 120000 kill 1000", facts["nats-jetstream"]);
        Assert.Equal("nats", servers["nats-jetstream"]);
        Assert.Equal("periodic window window 120000 kill 1000", facts["nats-r3"]);
        Assert.Equal("nats-r3", servers["nats-r3"]);
        Assert.Equal("per-commit nothing nothing ", facts["rabbitmq-r3"]);
        Assert.Equal("rabbitmq-r3", servers["rabbitmq-r3"]);
        Assert.Equal(11, storages.Count(s => s.Serves.Contains("Queue")));
        Assert.All(storages.Where(s => s.Serves.Contains("Queue") && s.Name != "nats-r3"), s => Assert.Equal(new QueueDeliveryPaths("at-most-once", "at-least-once"), s.Delivery));
        // A failover of nats-r3's consumer leader can undo a confirmed ack: GET /read is at-most-once only until a failover.
        Assert.Equal(new QueueDeliveryPaths("at-most-once-until-failover", "at-least-once"), Single(storages, "nats-r3").Delivery);
        Assert.All(storages.Where(s => !s.Serves.Contains("Queue")), s => Assert.Null(s.Delivery));
        Assert.Equal(["postgres", "redis-persistent", "tarantool-memtx", "tarantool-vinyl"], storages.Where(s => s.Shardable).Select(s => s.Name));
        Assert.Equal("postgres", Assert.Single(storages, s => s.IsKvDefault).Name);
    }

    [Fact]
    public async Task AReplicatedArchitectureStatesItsTopologyAndFailoverAsData()
    {
        var storages = await StoragesAsync(new() { ["Redis:SentinelDownAfterMs"] = "5000", ["Redis:ClusterR2NodeTimeoutMs"] = "3000" });

        var sentinel = Single(storages, "redis-sentinel");
        var replication = Assert.IsType<ReplicationDescription>(sentinel.Replication);
        Assert.Equal((2, 3, "asynchronous", "redis-sentinel", 5000, "unreplicated"),
            (replication.DataNodes, replication.Voters, replication.Mode, replication.Failover, replication.DetectionMs, replication.FailoverLoss));
        Assert.Equal(3, replication.Nodes.Length);
        Assert.Equal(["127.0.0.21", "127.0.0.22", "127.0.0.23"], replication.Nodes);
        Assert.Contains("about 5000 ms of silence", sentinel.Durability.Text);
        Assert.Equal("redis-sentinel", Assert.Single(sentinel.Servers));
        var clusterR2 = Assert.IsType<ReplicationDescription>(Single(storages, "redis-cluster-r2").Replication);
        Assert.Equal((6, 3, "asynchronous", "redis-cluster", 3000, "unreplicated"),
            (clusterR2.DataNodes, clusterR2.Voters, clusterR2.Mode, clusterR2.Failover, clusterR2.DetectionMs, clusterR2.FailoverLoss));
        Assert.Equal(["127.0.0.31", "127.0.0.32", "127.0.0.33", "127.0.0.34", "127.0.0.35", "127.0.0.36"], clusterR2.Nodes);
        Assert.Equal("redis-cluster-r2", Assert.Single(Single(storages, "redis-cluster-r2").Servers));
        Assert.Contains("(cluster-node-timeout, 3000 ms)", Single(storages, "redis-cluster-r2").Durability.Text);
        var r3 = Assert.IsType<ReplicationDescription>(Single(storages, "nats-r3").Replication);
        Assert.Equal((3, 3, "quorum", "nats-jetstream-raft", 4000, "nothing"),
            (r3.DataNodes, r3.Voters, r3.Mode, r3.Failover, r3.DetectionMs, r3.FailoverLoss));
        Assert.Equal(["127.0.0.41", "127.0.0.42", "127.0.0.43"], r3.Nodes);
        var rabbitMq = Assert.IsType<ReplicationDescription>(Single(storages, "rabbitmq-r3").Replication);
        Assert.Equal((3, 3, "quorum", "rabbitmq-quorum-queue-raft", 12_500, "nothing"),
            (rabbitMq.DataNodes, rabbitMq.Voters, rabbitMq.Mode, rabbitMq.Failover, rabbitMq.DetectionMs, rabbitMq.FailoverLoss));
        Assert.Equal(["127.0.0.71", "127.0.0.72", "127.0.0.73"], rabbitMq.Nodes);
        Assert.Equal("rabbitmq-r3", Assert.Single(Single(storages, "rabbitmq-r3").Servers));
        foreach (var (name, synchronous) in new[] { ("postgres-patroni", false), ("postgres-patroni-sync", true) })
        {
            var patroni = Assert.IsType<ReplicationDescription>(Single(storages, name).Replication);
            Assert.Equal((3, 1, synchronous ? "synchronous" : "asynchronous", "patroni-etcd", 10_000, synchronous ? "nothing" : "unreplicated"),
                (patroni.DataNodes, patroni.Voters, patroni.Mode, patroni.Failover, patroni.DetectionMs, patroni.FailoverLoss));
            Assert.Equal(synchronous ? ["127.0.0.61", "127.0.0.62", "127.0.0.63"] : ["127.0.0.51", "127.0.0.52", "127.0.0.53"], patroni.Nodes);
            Assert.Equal(name, Assert.Single(Single(storages, name).Servers));
        }
        // One server, no failover: no replication stated.
        Assert.All(storages.Where(s => s.Name is not ("redis-sentinel" or "redis-cluster-r2" or "nats-r3" or "rabbitmq-r3" or "postgres-patroni" or "postgres-patroni-sync")), s => Assert.Null(s.Replication));
    }

    [Fact]
    public async Task WithoutItsNodesConfiguredThereIsNoPatroniTopology()
    {
        var storages = await StoragesAsync(new() { ["Postgres:Patroni"] = "", ["Postgres:PatroniSync"] = "" });

        Assert.DoesNotContain(storages, s => s.Name.StartsWith("postgres-patroni", StringComparison.Ordinal));
        Assert.Contains(storages, s => s.Name == "postgres");
    }

    [Fact]
    public async Task WithoutItsNodesConfiguredThereIsNoNatsR3()
    {
        var storages = await StoragesAsync(new() { ["Nats:R3Url"] = "" });

        Assert.DoesNotContain(storages, s => s.Name == "nats-r3");
        Assert.Contains(storages, s => s.Name == "nats-jetstream");
    }

    [Fact]
    public async Task WithoutItsNodesConfiguredThereIsNoRabbitMqR3()
    {
        var storages = await StoragesAsync(new() { ["RabbitMq:R3Endpoints"] = "" });

        Assert.DoesNotContain(storages, s => s.Name == "rabbitmq-r3");
        Assert.Contains(storages, s => s.Name == "rabbitmq");
    }

    [Fact]
    public async Task WithoutSentinelsConfiguredThereIsNoRedisSentinel()
    {
        var storages = await StoragesAsync(new() { ["Redis:Sentinel"] = "" });

        Assert.DoesNotContain(storages, s => s.Name == "redis-sentinel");
    }

    [Fact]
    public async Task RedisClusterR2sNodesAreItsSeedsWithoutTheClientsOptions()
    {
        var storages = await StoragesAsync(new() { ["Redis:ClusterR2"] = "127.0.0.31:16384, 127.0.0.32:16384,abortConnect=false" });

        Assert.Equal(["127.0.0.31", "127.0.0.32"], Assert.IsType<ReplicationDescription>(Single(storages, "redis-cluster-r2").Replication).Nodes);
    }

    [Fact]
    public async Task WithoutItsNodesConfiguredThereIsNoRedisClusterR2()
    {
        var storages = await StoragesAsync(new() { ["Redis:ClusterR2"] = "" });

        Assert.DoesNotContain(storages, s => s.Name == "redis-cluster-r2");
        Assert.Contains(storages, s => s.Name == "redis-cluster");
    }

    [Fact]
    public async Task TheFactsFollowTheServersSettings()
    {
        var storages = await StoragesAsync(new()
        {
            ["Redis:AofAppendFsync"] = "always",
            ["Redis:RdbSave"] = "900 1 300 10",
            ["Tarantool:WalMode"] = "fsync",
            ["Beanstalkd:FsyncIntervalMs"] = "0",
            ["Postgres:SynchronousCommit"] = "off",
        });

        Assert.Equal("per-commit", Single(storages, "redis-aof").Durability.Fsync);
        Assert.Equal(302_000, Single(storages, "redis-rdb").Durability.LossWindowMs);
        Assert.Equal("nothing", Single(storages, "tarantool-vinyl").Durability.PowerLoss);
        Assert.Equal("nothing", Single(storages, "beanstalkd").Durability.PowerLoss);
        Assert.Equal("window", Single(storages, "postgres").Durability.ProcessCrash);
    }

    [Fact]
    public async Task AnUnknownServerSettingIsRejected()
    {
        await Assert.ThrowsAsync<OptionsValidationException>(() => StoragesAsync(new() { ["Tarantool:WalMode"] = "sometimes" }));
    }

    private static StorageDescription Single(StorageDescription[] storages, string name) => Assert.Single(storages, s => s.Name == name);

    /// <summary>What <c>GET /storages</c> answers for the service composed with these settings over the defaults.</summary>
    internal static async Task<StorageDescription[]> StoragesAsync(Dictionary<string, string?> settings)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(settings);
        builder.AddStorage();
        await using var host = (IAsyncDisposable)builder.Build();
        var result = (IValueHttpResult)StoragesEndpoint.Handle(((IHost)host).Services.GetRequiredService<StorageRegistry>());
        return ((IEnumerable<StorageDescription>)result.Value!).ToArray();
    }
}
