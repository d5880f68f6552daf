using System.CommandLine;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService settle [--vacuum]</c>: makes the servers finish the background work a
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

    public SettleCommand() : base("settle", "PostgreSQL CHECKPOINT (with --vacuum: VACUUM (ANALYZE) first) and Tarantool box.snapshot(); prints which settled as JSON")
    {
        Add(_vacuum);
        SetAction((parse, _) => RunAsync(parse.GetValue(_vacuum)));
    }

    private static async Task<int> RunAsync(bool vacuum)
    {
        using var host = StorageHost.Build(); // built, not started: no schema work, no reconnect loop
        var postgres = await TryAsync("PostgreSQL", () => SettlePostgresAsync(host.Services.GetRequiredService<PostgresDatabase>(), vacuum));
        var tarantool = await TryAsync("Tarantool", () => SnapshotTarantoolAsync(host.Services.GetRequiredService<TarantoolConnection>()));
        Console.WriteLine($"{{\"postgres\":{(postgres ? "true" : "false")},\"tarantool\":{(tarantool ? "true" : "false")}}}");
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
