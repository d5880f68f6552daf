using System.CommandLine;
using IntegrationService.Storage;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService settle [--vacuum] [--only server,…]</c>: makes the servers finish the background work a
/// previous step left them (dirty pages and WAL after a seed or a write run, vinyl's in-memory
/// level), so that it does not land in the next measured run: PostgreSQL CHECKPOINT (with
/// <c>--vacuum</c> first VACUUM (ANALYZE)), Tarantool <c>box.snapshot()</c>. Uses the service's own
/// settings and clients. A server that is not there or does not settle is reported on stderr and
/// skipped: the bench measures anyway. Prints one JSON line: which servers settled.
/// </summary>
public sealed class SettleCommand : Command
{
    // A checkpoint or a snapshot after a large seed writes everything dirty: minutes, not seconds.
    private static readonly TimeSpan SettleTimeout = TimeSpan.FromSeconds(300);

    private readonly Option<bool> _vacuum = new("--vacuum") { Description = "Also VACUUM (ANALYZE) PostgreSQL before its checkpoint (after a seed)" };
    // Text, split by RunAsync: System.CommandLine turns an absent array option into [] (none), not null (all).
    private readonly Option<string?> _only = new("--only")
    {
        Description = "Only among these servers, comma-separated, as the catalogue names them (the bench passes those its run started): postgres and tarantool are settled, the others have nothing to settle",
        HelpName = "name,…",
    };

    public SettleCommand() : base("settle", "PostgreSQL CHECKPOINT (with --vacuum: VACUUM (ANALYZE) first) and Tarantool box.snapshot(); prints which settled as JSON")
    {
        Add(_vacuum);
        Add(_only);
        SetAction((parse, _) => RunAsync(parse.GetValue(_vacuum), parse.GetValue(_only)?.Split(',', StringSplitOptions.TrimEntries)));
    }

    private static async Task<int> RunAsync(bool vacuum, IReadOnlyList<string>? only)
    {
        using var host = StorageHost.Build(); // built, not started: no schema work, no reconnect loop
        var known = host.Services.GetRequiredService<StorageRegistry>().All.SelectMany(a => a.Backends.Concat(a.Caches)).ToHashSet(StringComparer.Ordinal);
        if (only?.FirstOrDefault(name => !known.Contains(name)) is { } unknown)
        {
            await Console.Error.WriteLineAsync($"--only: '{unknown}' is no server of the catalogue (known: {string.Join(", ", known.Order(StringComparer.Ordinal))})");
            return 2;
        }
        var settled = new List<string>();
        if (only?.Contains("postgres") ?? true)
        {
            var postgres = await TryAsync("PostgreSQL", () => SettlePostgresAsync(host.Services.GetRequiredService<PostgresDatabase>(), vacuum));
            settled.Add($"\"postgres\":{(postgres ? "true" : "false")}");
        }
        if (only?.Contains("tarantool") ?? true)
        {
            var tarantool = await TryAsync("Tarantool", () => SnapshotTarantoolAsync(host.Services.GetRequiredService<TarantoolConnection>()));
            settled.Add($"\"tarantool\":{(tarantool ? "true" : "false")}");
        }
        Console.WriteLine($"{{{string.Join(',', settled)}}}");
        return 0;
    }

    private static async Task<bool> TryAsync(string server, Func<Task> settle)
    {
        try
        {
            using var deadline = new CancellationTokenSource(SettleTimeout);
            await settle().WaitAsync(deadline.Token);
            return true;
        }
        catch (Exception e)
        {
            await Console.Error.WriteLineAsync($"settle: {server} did not settle: {e.Message}");
            return false;
        }
    }

    private static Task SettlePostgresAsync(PostgresDatabase database, bool vacuum) =>
        database.RunOnConnectionAsync(async (connection, cancellationToken) =>
        {
            foreach (var sql in vacuum ? new[] { "VACUUM (ANALYZE)", "CHECKPOINT" } : ["CHECKPOINT"])
            {
                await using var command = connection.CreateCommand();
                command.CommandText = sql;
                command.CommandTimeout = (int)SettleTimeout.TotalSeconds;
                await command.ExecuteNonQueryAsync(cancellationToken);
            }
            return true;
        }, CancellationToken.None);

    private static async Task SnapshotTarantoolAsync(TarantoolConnection connection)
    {
        if (!await connection.TryConnectAsync(CancellationToken.None)) throw new InvalidOperationException("not reachable");
        using var response = await connection.SendAsync(IprotoCode.Eval, "box.snapshot()", WriteEval, SettleTimeout, CancellationToken.None);
    }

    private static void WriteEval(ref MessagePackWriter writer, string expression)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.Expression, expression);
        writer.WriteArrayHeader(0);
    }
}
