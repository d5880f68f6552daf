using Microsoft.OpenApi;
using Swashbuckle.AspNetCore.SwaggerGen;

namespace IntegrationService.Http;

/// <summary>
/// The endpoints read <c>id</c>, <c>offset</c> and <c>limit</c> as strings so a bad value is a 400 naming
/// the field (see <see cref="RequestValues"/>); Swagger shows them as the integers they are.
/// </summary>
internal sealed class IntegerParameterFilter : IOperationFilter
{
    private static readonly Dictionary<string, (long Minimum, string Description)> Integers = new()
    {
        ["id"] = (1, "A positive integer."),
        ["offset"] = (0, "Rows to skip (default 0)."),
        ["limit"] = (1, "Rows to return (default 100)."),
    };

    public void Apply(OpenApiOperation operation, OperationFilterContext context)
    {
        if (operation.Parameters is null) return;
        foreach (var parameter in operation.Parameters.OfType<OpenApiParameter>())
        {
            if (parameter.Name is null || !Integers.TryGetValue(parameter.Name, out var integer)) continue;
            parameter.Schema = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int64", Minimum = integer.Minimum.ToString(System.Globalization.CultureInfo.InvariantCulture) };
            parameter.Description ??= integer.Description;
        }
    }
}
