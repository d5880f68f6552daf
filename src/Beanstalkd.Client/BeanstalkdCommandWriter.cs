using System.Buffers;
using System.Text;
using System.Text.Unicode;

namespace Beanstalkd.Client;

/// <summary>
/// Writes command lines (and a put's body) straight into the connection's send buffer: numbers
/// are formatted into it and the tube's commands are encoded once, so sending allocates nothing.
/// </summary>
internal sealed class BeanstalkdCommandWriter
{
    /// <summary>
    /// The priority of every job put (and of a reservation handed back): beanstalkd's customary
    /// middle value, so that jobs come out in the order they went in.
    /// </summary>
    public const uint Priority = 1024;

    private const int MaxLineLength = 64;

    private readonly byte[] _use;
    private readonly byte[] _watch;
    private readonly byte[] _statsTube;
    private readonly uint _ttrSeconds;

    public BeanstalkdCommandWriter(string tube, TimeSpan ttr)
    {
        TubeName = tube;
        Tube = Encoding.ASCII.GetBytes(tube);
        _use = Encoding.ASCII.GetBytes($"use {tube}\r\n");
        _watch = Encoding.ASCII.GetBytes($"watch {tube}\r\n");
        _statsTube = Encoding.ASCII.GetBytes($"stats-tube {tube}\r\n");
        _ttrSeconds = (uint)Math.Ceiling(ttr.TotalSeconds);
    }

    public string TubeName { get; }

    /// <summary>The tube's name in ASCII, as the server spells it in USING.</summary>
    public ReadOnlyMemory<byte> Tube { get; }

    /// <summary>Whether the connection needs no use/watch/ignore: a new connection uses and watches "default".</summary>
    public bool IsDefaultTube => TubeName == "default";

    /// <summary>Appends <paramref name="command"/>; <paramref name="id"/> and <paramref name="body"/> where it takes them.</summary>
    public void Write(IBufferWriter<byte> output, BeanstalkdCommand command, ulong id, ReadOnlySpan<byte> body)
    {
        int written;
        switch (command)
        {
            case BeanstalkdCommand.Put:
                Advance(output, Utf8.TryWrite(output.GetSpan(MaxLineLength), $"put {Priority} 0 {_ttrSeconds} {body.Length}\r\n", out written), written);
                output.Write(body);
                output.Write("\r\n"u8);
                break;
            case BeanstalkdCommand.Reserve:
                output.Write("reserve-with-timeout 0\r\n"u8);
                break;
            case BeanstalkdCommand.Delete:
                Advance(output, Utf8.TryWrite(output.GetSpan(MaxLineLength), $"delete {id}\r\n", out written), written);
                break;
            case BeanstalkdCommand.Release:
                Advance(output, Utf8.TryWrite(output.GetSpan(MaxLineLength), $"release {id} {Priority} 0\r\n", out written), written);
                break;
            case BeanstalkdCommand.Touch:
                Advance(output, Utf8.TryWrite(output.GetSpan(MaxLineLength), $"touch {id}\r\n", out written), written);
                break;
            case BeanstalkdCommand.StatsTube:
                output.Write(_statsTube);
                break;
            case BeanstalkdCommand.ListTubeUsed:
                output.Write("list-tube-used\r\n"u8);
                break;
            case BeanstalkdCommand.Use:
                output.Write(_use);
                break;
            case BeanstalkdCommand.Watch:
                output.Write(_watch);
                break;
            case BeanstalkdCommand.IgnoreDefault:
                output.Write("ignore default\r\n"u8);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(command), command, null);
        }
    }

    /// <summary>Commits a formatted line; it always fits, as <see cref="MaxLineLength"/> exceeds the longest.</summary>
    private static void Advance(IBufferWriter<byte> output, bool fitted, int written)
    {
        if (!fitted) throw new InvalidOperationException("A beanstalkd command line did not fit its buffer.");
        output.Advance(written);
    }
}
