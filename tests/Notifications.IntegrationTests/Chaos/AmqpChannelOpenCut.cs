using System.Buffers.Binary;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// Copies what an AMQP 0-9-1 client sends, frame by frame, up to its n-th channel.open (class 20, method 10), which is not
/// forwarded: the place a proxy cuts a connection at a chosen step of the client's set-up (<see cref="BlackholeProxy.RefuseAtChannelOpen"/>).
/// </summary>
internal static class AmqpChannelOpenCut
{
    private const byte MethodFrame = 1;
    private const ushort ChannelClass = 20;
    private const ushort ChannelOpen = 10;

    /// <summary>The protocol header, then each frame (type, channel, payload size, payload, frame end) until the n-th channel.open.</summary>
    public static async Task CopyUntilAsync(Stream from, Stream to, int channelOpen, CancellationToken cancellationToken)
    {
        byte[] header = new byte[8];
        await from.ReadExactlyAsync(header, cancellationToken);
        await to.WriteAsync(header, cancellationToken);
        byte[] head = new byte[7];
        int opens = 0;
        while (true)
        {
            await from.ReadExactlyAsync(head, cancellationToken);
            uint size = BinaryPrimitives.ReadUInt32BigEndian(head.AsSpan(3));
            byte[] rest = new byte[size + 1];
            await from.ReadExactlyAsync(rest, cancellationToken);
            if (head[0] == MethodFrame && size >= 4
                && BinaryPrimitives.ReadUInt16BigEndian(rest) == ChannelClass && BinaryPrimitives.ReadUInt16BigEndian(rest.AsSpan(2)) == ChannelOpen
                && ++opens == channelOpen)
            {
                return;
            }

            await to.WriteAsync(head, cancellationToken);
            await to.WriteAsync(rest, cancellationToken);
        }
    }
}
