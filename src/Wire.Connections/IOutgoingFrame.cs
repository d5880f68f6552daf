namespace Wire.Connections;

/// <summary>
/// One request as <see cref="PipelinedWriter.TryEnqueue{TFrame}"/> takes it: usually a struct or a ref struct
/// over the caller's arguments, so that queueing allocates nothing and the call is specialised per frame type.
/// </summary>
public interface IOutgoingFrame
{
    /// <summary>
    /// Appends the request's bytes to <paramref name="output"/>, then registers whatever waits for its answer.
    /// Runs under the writer's lock, so registrations happen in the order the bytes will be sent (which a
    /// protocol that answers in order relies on), and none happens once the writer is closed. If it throws,
    /// the bytes it appended are dropped and nothing is sent.
    /// </summary>
    void WriteTo(PooledBufferWriter output);
}
