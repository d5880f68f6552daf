using System.Buffers;
using Microsoft.AspNetCore.Http.Features;

namespace IntegrationService.Kv;

/// <summary>Reads a PUT body as the value: at most <see cref="KvLimits.MaxValueBytes"/> bytes (413 beyond), any bytes at all.</summary>
internal static class KvValueBody
{
    public static async ValueTask<(byte[] Value, IResult? Problem)> ReadAsync(HttpRequest request)
    {
        if (request.ContentLength > KvLimits.MaxValueBytes) return ([], TooLarge());
        // Kestrel's body limit is set for the other APIs' small JSON bodies; a value may be larger.
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = KvLimits.MaxValueBytes + 1;
        }
        var reader = request.BodyReader;
        while (true)
        {
            var read = await reader.ReadAsync(request.HttpContext.RequestAborted);
            var buffer = read.Buffer;
            if (buffer.Length > KvLimits.MaxValueBytes)
            {
                reader.AdvanceTo(buffer.Start, buffer.End);
                return ([], TooLarge());
            }
            if (read.IsCompleted)
            {
                var value = buffer.ToArray();
                reader.AdvanceTo(buffer.End);
                return (value, null);
            }
            reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private static IResult TooLarge() =>
        Results.Problem(statusCode: StatusCodes.Status413PayloadTooLarge, title: "Value too large",
            detail: $"A value is at most {KvLimits.MaxValueBytes} bytes.");
}
