using IntegrationService.Queues;
using IntegrationService.Storage;

namespace IntegrationService.Seeding;

/// <summary>The queue a queue tool (fill-queue, purge-queue) names, found in the service's own registry.</summary>
internal static class QueueToolStore
{
    /// <summary>
    /// The queue's canonical name and store; null, after a usage error on stderr naming the known
    /// queues, for a name the registry does not know (checked here, not while parsing: the names are the registry's).
    /// </summary>
    public static async Task<(string Queue, IQueueStore Store)?> FindAsync(IHost host, string tool, string name)
    {
        try
        {
            return host.Services.GetRequiredService<StorageRegistry>().Queue(name);
        }
        catch (UnknownStorageException e)
        {
            await Console.Error.WriteLineAsync($"{tool}: error: --queue: {e.Message}");
            return null;
        }
    }
}
