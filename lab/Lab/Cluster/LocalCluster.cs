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
        Children.Log("building the service (Release)");
        if (Children.Output("dotnet", ["build", Path.Combine(settings.Root, "IntegrationService"), "-c", "Release", "--nologo", "--verbosity", "quiet"]) is null)
            throw new ClusterException("the service does not build: dotnet build IntegrationService -c Release says why");
        var json = Children.Output("dotnet", [settings.ServiceDll, "catalogue", "--json"]) ?? throw new ClusterException("IntegrationService catalogue --json failed");
        storage ??= ClusterCatalogue.KvDefault(json);
        var server = ClusterCatalogue.StoreServer(json, storage);
        if (server is null || !NodeStore.Servers.Contains(server))
            throw new ClusterException($"--storage: '{storage}' is not an architecture the catalogue calls shardable (see IntegrationService catalogue)");
        using var cluster = new ClusterNodes(settings, port);
        for (var i = 0; i < nodes; i++)
            if (Children.PortOpen(port + i)) throw new ClusterException($"port {port + i} is taken: stop what listens there or choose --port");
        Directory.CreateDirectory(settings.ClusterDir);
        var state = new ClusterState(nodes, storage, server, port);
        File.WriteAllText(settings.StateFile, state.Format());

        if (server == "postgres") CreateDatabases(nodes);
        else for (var i = 0; i < nodes; i++) Services("up", server, i);

        var all = string.Join(',', Enumerable.Range(0, nodes).Select(cluster.Url));
        for (var i = 0; i < nodes; i++)
        {
            Children.Log($"node {i}: {cluster.Url(i)} (storage {storage})");
            cluster.Start(i, ["--Logging:LogLevel:Default=Warning", $"--Kv:Default={storage}", $"--Cluster:Nodes={all}", $"--Cluster:Self={cluster.Url(i)}",
                NodeStore.ServiceArgument(server, i, settings)]);
        }
        for (var i = 0; i < nodes; i++)
            if (!cluster.WaitUntilAnswering(i)) throw new ClusterException($"node {i} did not answer on {cluster.Url(i)}: see {settings.LogFile(i)}");
        Children.Log($"cluster up: {nodes} nodes, storage {storage}: {all.Replace(',', ' ')}");
    }

    public void Down()
    {
        if (ClusterState.Read(settings.StateFile) is not { } state)
        {
            Children.Log("no cluster is up");
            return;
        }
        using var cluster = new ClusterNodes(settings, state.Port);
        for (var i = 0; i < state.Nodes; i++)
        {
            cluster.Stop(i);
            Services("down", state.Server, i);
        }
        File.Delete(settings.StateFile);
        Children.Log("cluster down");
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
            var pids = Children.Output(settings.Services, ["pid", state.Server], environment) ?? "";
            foreach (var pid in pids.Split('\n', StringSplitOptions.RemoveEmptyEntries)) output.WriteLine($"{state.Server}-node{i}={pid}");
        }
    }

    // Node i's own instance of its server, through script/services with the node's data directory and port.
    private void Services(string command, string server, int node)
    {
        if (NodeStore.ServicesEnvironment(server, node, settings) is { } environment) Children.Run(settings.Services, [command, server], environment);
    }

    private void CreateDatabases(int nodes)
    {
        if (settings.PgBin.Length == 0) throw new ClusterException("PostgreSQL is not installed: run script/bootstrap");
        Children.Run(settings.Services, ["up", "postgres"]);
        var port = settings.PgPort.ToString(CultureInfo.InvariantCulture);
        for (var i = 0; i < nodes; i++)
        {
            var database = NodeStore.Database(i);
            var exists = Children.Output(Path.Combine(settings.PgBin, "psql"),
                ["-h", "127.0.0.1", "-p", port, "-U", "integration", "-d", "postgres", "-tAc", $"select 1 from pg_database where datname = '{database}'"]);
            if (exists?.Trim() == "1") continue;
            Children.Log($"postgres: creating the database {database}");
            Children.Run(Path.Combine(settings.PgBin, "createdb"), ["-h", "127.0.0.1", "-p", port, "-U", "integration", database]);
        }
    }
}
