using System.Text.Json.Nodes;
using IntegrationService.Storage;
using Microsoft.OpenApi;
using Swashbuckle.AspNetCore.SwaggerGen;

namespace IntegrationService.Http;

/// <summary>Offers the <c>storage</c> query parameter in Swagger UI as a list of the names valid for the route.</summary>
internal sealed class StorageParameterFilter(StorageRegistry registry) : IOperationFilter
{
    public void Apply(OpenApiOperation operation, OperationFilterContext context)
    {
        if (operation.Parameters is null) return;
        var path = context.ApiDescription.RelativePath ?? "";
        var names = path.StartsWith("item", StringComparison.OrdinalIgnoreCase) ? registry.ItemStorageNames : registry.AuthorStorageNames;
        foreach (var parameter in operation.Parameters.OfType<OpenApiParameter>().Where(p => p.Name == "storage"))
        {
            parameter.Description = $"Storage architecture (default: {registry.DefaultName}).";
            parameter.Schema = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Enum = names.Select(n => (JsonNode)JsonValue.Create(n)).ToList(),
                Default = JsonValue.Create(registry.DefaultName),
            };
        }
    }
}
