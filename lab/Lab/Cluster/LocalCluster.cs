using System.Net.Sockets;
using Harness.Processes;
using Harness.Catalogue;
using Harness;
using System.Globalization;

namespace Lab.Cluster;

/// <summary>
/// The key-value API's sharded topology on this machine: N service nodes on consecutive ports,
/// each with its own store, each told every node's URL and its own (what script/cluster runs).
/// </summary>
public sealed class LocalCluster(ClusterSettings settings)
{
    public void Up(int nodes, string? storage, int port)
    {
        if (File.Exists(settings.StateFile))
            throw new ClusterException($"a cluster is already up ({ClusterState.Describe(File.ReadAllText(settings.StateFile))}): script/cluster down first");
        ToolLog.Write("building the service (Release)");
        if (ProcessRunner.Run("dotnet", ["build", Path.Combine(settings.Root, "IntegrationService"), "-c", "Release", "--nologo", "--verbosity", "quiet"],
                CancellationToken.None).ExitCode != 0)
            throw new ClusterException("the service does not build: dotnet build IntegrationService -c Release says why");
        var catalogue = StorageCatalogue.FromService(settings.ServiceDll, CancellationToken.None);
        storage ??= ClusterCatalogue.KvDefault(catalogue);
        var server = ClusterCatalogue.StoreServer(catalogue, storage);
        if (server is null || !NodeStore.Servers.Contains(server))
            throw new ClusterException($"--storage: '{storage}' is not an architecture the catalogue calls shardable (see IntegrationService catalogue)");
        using var cluster = new ClusterNodes(settings, port);
        for (var i = 0; i < nodes; i++)
            if (PortOpen(port + i)) throw new ClusterException($"port {port + i} is taken: stop what listens there or choose --port");
        Directory.CreateDirectory(settings.ClusterDir);
        var state = new ClusterState(nodes, storage, server, port);
        File.WriteAllText(settings.StateFile, state.Format());

        if (server == "postgres") CreateDatabases(nodes);
        else for (var i = 0; i < nodes; i++) Services("up", server, i);

        var all = string.Join(',', Enumerable.Range(0, nodes).Select(cluster.Url));
        for (var i = 0; i < nodes; i++)
        {
            ToolLog.Write($"node {i}: {cluster.Url(i)} (storage {storage})");
            cluster.Start(i, ["--Logging:LogLevel:Default=Warning", $"--Kv:Default={storage}", $"--Cluster:Nodes={all}", $"--Cluster:Self={cluster.Url(i)}",
                NodeStore.ServiceArgument(server, i, settings)]);
        }
        for (var i = 0; i < nodes; i++)
            if (!cluster.WaitUntilAnswering(i)) throw new ClusterException($"node {i} did not answer on {cluster.Url(i)}: see {settings.LogFile(i)}");
        ToolLog.Write($"cluster up: {nodes} nodes, storage {storage}: {all.Replace(',', ' ')}");
    }

    public void Down()
    {
        if (ClusterState.Read(settings.StateFile) is not { } state)
        {
            ToolLog.Write("no cluster is up");
            return;
        }
        using var cluster = new ClusterNodes(settings, state.Port);
        for (var i = 0; i < state.Nodes; i++)
        {
            cluster.Stop(i);
            Services("down", state.Server, i);
        }
        File.Delete(settings.StateFile);
        ToolLog.Write("cluster down");
    }

    /// <summary>Each node's /v0/status; 1 when no cluster is up or a node does not answer.</summary>
    public int Status(TextWriter output)
    {
        if (ClusterState.Read(settings.StateFile) is not { } state)
        {
            output.WriteLine("no cluster is up");
            return 1;
        }
        using var cluster = new ClusterNodes(settings, state.Port);
        var rc = 0;
        output.WriteLine($"cluster: {state.Nodes} nodes, storage {state.Storage}");
        for (var i = 0; i < state.Nodes; i++)
        {
            var status = cluster.Status(i);
            output.WriteLine(status is null ? $"node {i} {cluster.Url(i)} down" : $"node {i} {cluster.Url(i)} up: {status}");
            if (status is null) rc = 1;
        }
        return rc;
    }

    /// <summary>For CPU accounting (lab bench): every process of the cluster, one name=pid a line.</summary>
    public void Pids(TextWriter output)
    {
        var state = ClusterState.Read(settings.StateFile) ?? throw new ClusterException("no cluster is up");
        using var cluster = new ClusterNodes(settings, state.Port);
        for (var i = 0; i < state.Nodes; i++)
        {
            if (cluster.Alive(i)) output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"node{i}={cluster.Pid(i)}"));
            if (NodeStore.ServicesEnvironment(state.Server, i, settings) is not { } environment) continue;
            var result = ProcessRunner.Run(settings.Services, ["pid", state.Server], CancellationToken.None, environment: environment);
            var pids = result.ExitCode == 0 ? result.Output : "";
            foreach (var pid in pids.Split('\n', StringSplitOptions.RemoveEmptyEntries)) output.WriteLine($"{state.Server}-node{i}={pid}");
        }
    }

    // Node i's own instance of its server, through script/services with the node's data directory and port.
    private void Services(string command, string server, int node)
    {
        if (NodeStore.ServicesEnvironment(server, node, settings) is { } environment) Run(settings.Services, [command, server], environment);
    }

    private void CreateDatabases(int nodes)
    {
        if (settings.PgBin.Length == 0) throw new ClusterException("PostgreSQL is not installed: run script/bootstrap");
        Run(settings.Services, ["up", "postgres"]);
        var port = settings.PgPort.ToString(CultureInfo.InvariantCulture);
        for (var i = 0; i < nodes; i++)
        {
            var database = NodeStore.Database(i);
            var exists = ProcessRunner.Run(Path.Combine(settings.PgBin, "psql"),
                ["-h", "127.0.0.1", "-p", port, "-U", "integration", "-d", "postgres", "-tAc", $"select 1 from pg_database where datname = '{database}'"],
                CancellationToken.None);
            if (exists.ExitCode == 0 && exists.Output.Trim() == "1") continue;
            ToolLog.Write($"postgres: creating the database {database}");
            Run(Path.Combine(settings.PgBin, "createdb"), ["-h", "127.0.0.1", "-p", port, "-U", "integration", database]);
        }
    }

    // A program whose output is the user's to read (on stderr); fails unless it exits 0.
    private static void Run(string file, IReadOnlyList<string> args, IReadOnlyDictionary<string, string>? environment = null)
    {
        if (ProcessRunner.ToStderr(file, args, environment) is var exit and not 0)
            throw new ClusterException($"{file} {string.Join(' ', args)} exited {exit}");
    }

    // Something accepts connections on the loopback port.
    private static bool PortOpen(int port)
    {
        using var client = new TcpClient();
        try
        {
            return client.ConnectAsync("127.0.0.1", port).Wait(TimeSpan.FromSeconds(2));
        }
        catch (AggregateException)
        {
            return false;
        }
    }
}
