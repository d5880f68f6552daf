using Microsoft.OpenApi;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Http;

/// <summary>
/// The OpenAPI document the service publishes, read by Microsoft.OpenApi as a client generator
/// would: it must parse without errors, pass the default validation rules and give every
/// operation an id of its own.
/// </summary>
public sealed class OpenApiDocumentTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    [Fact]
    public async Task TheDocumentParsesAndValidatesWithoutErrors()
    {
        var json = await service.Client.GetStringAsync("/swagger/v1/swagger.json");

        var result = OpenApiDocument.Parse(json, "json");

        Assert.NotNull(result.Document);
        Assert.Empty(result.Diagnostic!.Errors.Select(e => e.ToString()));
        Assert.Empty(result.Document.Validate(ValidationRuleSet.GetDefaultRuleSet())!.Select(e => e.ToString()));
    }

    [Fact]
    public async Task EveryOperationHasItsOwnId()
    {
        var result = OpenApiDocument.Parse(await service.Client.GetStringAsync("/swagger/v1/swagger.json"), "json");

        var ids = result.Document!.Paths.SelectMany(p => p.Value.Operations!.Values).Select(o => o.OperationId).ToArray();
        Assert.All(ids, id => Assert.False(string.IsNullOrEmpty(id)));
        Assert.Equal(ids.Length, ids.Distinct(StringComparer.Ordinal).Count());
        Assert.Contains("KvEntityGet", ids);
        Assert.Contains("KvEntityPut", ids);
        Assert.Contains("KvEntityDelete", ids);
    }
}
