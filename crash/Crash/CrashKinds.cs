using IntegrationService.Http;
namespace Crash;

/// <summary>A kind's name on the command line and in results, and what the catalogue calls the API serving it.</summary>
public static class CrashKinds
{
    public static readonly IReadOnlyList<CrashKind> All = [CrashKind.Author, CrashKind.Item, CrashKind.Queue, CrashKind.LeasedQueue, CrashKind.KeyValue];

    /// <summary>A queue run, whichever path it reads.</summary>
    public static bool IsQueue(this CrashKind kind) => kind is CrashKind.Queue or CrashKind.LeasedQueue;

    public static string Name(this CrashKind kind) => kind switch
    {
        CrashKind.Author => "author",
        CrashKind.Item => "item",
        CrashKind.Queue => "queue",
        CrashKind.LeasedQueue => "queue-leased",
        _ => "kv",
    };

    /// <summary>The catalogue's <c>serves</c> word for the kind.</summary>
    public static string Serves(this CrashKind kind) => kind switch
    {
        CrashKind.Author => StorageApi.Author,
        CrashKind.Item => StorageApi.Item,
        CrashKind.Queue or CrashKind.LeasedQueue => StorageApi.Queue,
        _ => StorageApi.KeyValue,
    };

    public static CrashKind? Parse(string name) => All.Cast<CrashKind?>().FirstOrDefault(k => k!.Value.Name() == name);
}
