using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace IntegrationService.Http;

/// <summary>
/// Reads a JSON request body with a source-generated serializer. Malformed JSON or a wrong type is a
/// 400 naming the JSON path (<c>$.age</c>); a body that is not JSON is a 415.
/// </summary>
public static class JsonBody
{
    public static async ValueTask<(T? Value, IResult? Problem)> ReadAsync<T>(HttpRequest request, JsonTypeInfo<T> typeInfo)
        where T : class
    {
        if (!request.HasJsonContentType())
        {
            return (null, Results.Problem(statusCode: StatusCodes.Status415UnsupportedMediaType, title: "Unsupported Media Type",
                detail: "The body must be JSON (Content-Type: application/json)."));
        }
        try
        {
            var value = await JsonSerializer.DeserializeAsync(request.Body, typeInfo, request.HttpContext.RequestAborted);
            return value is null ? (null, ApiResults.Invalid("$", "The body must be a JSON object.")) : (value, null);
        }
        catch (JsonException e)
        {
            return (null, ApiResults.Invalid(e.Path ?? "$", $"The JSON is invalid: {FirstSentence(e.Message)}"));
        }
    }

    // System.Text.Json appends the path and position after the first sentence; the key already names the path.
    private static string FirstSentence(string message)
    {
        var end = message.IndexOf(". ", StringComparison.Ordinal);
        return end < 0 ? message : message[..(end + 1)];
    }
}
