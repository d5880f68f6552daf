using System.Buffers;
using Microsoft.AspNetCore.Http.Features;

namespace IntegrationService.Kv;

/// <summary>Reads a PUT body as the value: at most <see cref="KvLimits.MaxValueBytes"/> bytes (413 beyond), any bytes at all.</summary>
internal static class KvValueBody
{
    /// <summary>The largest too-large body read to its end so that its sender gets the 413.</summary>
    internal const long DrainedBytes = 4L * KvLimits.MaxValueBytes;

    public static async ValueTask<(byte[] Value, IResult? Problem)> ReadAsync(HttpRequest request)
    {
        // Kestrel's body limit is set for the other APIs' small JSON bodies; a value may be larger. A body
        // beyond the value's limit is answered 413 before it is all read, and Kestrel then reads what is
        // left to keep the connection; past its own limit it closes the connection while the client may
        // still be sending, and the client sees a reset instead of the answer. So the rest of a body up to
        // DrainedBytes is read and dropped; a larger one closes the connection (a client that sends
        // Expect: 100-continue does not send it at all).
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = DrainedBytes;
        }
        if (request.ContentLength > KvLimits.MaxValueBytes) return ([], TooLarge());
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
