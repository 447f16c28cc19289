using System.Buffers;

namespace Notifications.Consumer.Sending.Smtp;

/// <summary>SMTP data transparency (RFC 5321 4.5.2): a line that starts with "." gets a second one.</summary>
internal static class DotStuffing
{
    /// <summary>The end-of-data marker that follows a message ending in CRLF.</summary>
    public static ReadOnlySpan<byte> Terminator => ".\r\n"u8;

    /// <summary>Whether <paramref name="message"/> (CRLF line ends) has a line that starts with ".".</summary>
    public static bool IsNeeded(ReadOnlySpan<byte> message) =>
        message.StartsWith((byte)'.') || message.IndexOf("\n."u8) >= 0;

    /// <summary>Copies <paramref name="message"/> to <paramref name="output"/> with each line-leading "." doubled.</summary>
    public static void Write(ReadOnlySpan<byte> message, IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        if (message.StartsWith((byte)'.'))
        {
            output.Write("."u8);
        }

        while (true)
        {
            int index = message.IndexOf("\n."u8);
            if (index < 0)
            {
                output.Write(message);
                return;
            }

            // Copy through the LF, add the extra dot; the original dot starts the next round.
            output.Write(message[..(index + 1)]);
            output.Write("."u8);
            message = message[(index + 1)..];
        }
    }
}
