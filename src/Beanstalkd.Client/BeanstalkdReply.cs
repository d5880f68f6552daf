namespace Beanstalkd.Client;

/// <summary>
/// A successful reply, reduced to what the caller needs: the job id (INSERTED, RESERVED) or the
/// ready count (stats-tube), and for RESERVED the job's body (null: no job was reserved).
/// </summary>
internal readonly record struct BeanstalkdReply(ulong Number, byte[]? Body)
{
    public static BeanstalkdReply None => default;
}
