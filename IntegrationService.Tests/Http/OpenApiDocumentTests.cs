using System.Text.RegularExpressions;
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

    [Fact]
    public async Task IntegrationServiceHttpHasARequestForEveryRoute()
    {
        var result = OpenApiDocument.Parse(await service.Client.GetStringAsync("/swagger/v1/swagger.json"), "json");
        var http = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "IntegrationService.http"));

        var missing = result.Document!.Paths
            .SelectMany(p => p.Value.Operations!.Keys.Select(method => (Method: method.ToString().ToUpperInvariant(), Path: p.Key)))
            .Where(op => !Regex.IsMatch(http, $"^{op.Method} {{{{base}}}}{RoutePattern(op.Path)}[?\\s]", RegexOptions.Multiline))
            .Select(op => $"{op.Method} {op.Path}");
        Assert.Empty(missing);
    }

    /// <summary>A route template as a pattern: each {parameter} matches one path segment.</summary>
    private static string RoutePattern(string template) => Regex.Replace(Regex.Escape(template), @"\\\{[^}]+}", "[^/?\\s]+");
}
