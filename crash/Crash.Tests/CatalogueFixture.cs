using Harness.Catalogue;
using IntegrationService.Http;

namespace Crash.Tests;

/// <summary>The catalogue as IntegrationService printed it (catalogue --json), kept as a fixture.</summary>
internal static class CatalogueFixture
{
    public static StorageCatalogue Load() => StorageCatalogue.Load(Path.Combine(AppContext.BaseDirectory, "Fixtures", "catalogue.json"));

    public static StorageDescription Entry(string name) => Load().Find(name) ?? throw new InvalidOperationException($"{name} is not in the fixture");
}
