using IntegrationService.Http;
using IntegrationService.Storage;

namespace Lab.Tests;

/// <summary>A catalogue entry built in a test, with only the fields the test is about.</summary>
public static class Architecture
{
    public static StorageDescription Of(string name, string[] serves, string[]? servers = null, string durability = "", bool shardable = false,
        string[]? aliases = null) =>
        new(name, aliases ?? [], "", serves, servers ?? [], [], new DurabilityDescription("", null, Loss.Anything, Loss.Anything, null, durability),
            null, shardable, false, false);
}
