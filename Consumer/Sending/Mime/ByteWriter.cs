using System.Buffers;
using System.Text;

namespace Notifications.Consumer.Sending.Mime;

/// <summary>
/// Writes small pieces to an <see cref="IBufferWriter{T}"/> through a cached span, so encoders that emit
/// a byte at a time do not pay a GetSpan/Advance pair per byte. Call <see cref="Flush"/> when done.
/// </summary>
internal ref struct ByteWriter
{
    private const int ChunkSize = 1024;
    private readonly IBufferWriter<byte> output;
    private Span<byte> span;
    private int position;

    public ByteWriter(IBufferWriter<byte> output)
    {
        this.output = output;
        span = default;
        position = 0;
    }

    public void Write(byte value)
    {
        Ensure(1);
        span[position++] = value;
    }

    public void Write(scoped ReadOnlySpan<byte> bytes)
    {
        Ensure(bytes.Length);
        bytes.CopyTo(span[position..]);
        position += bytes.Length;
    }

    /// <summary>Writes text as UTF-8 (ASCII stays one byte a character).</summary>
    public void Write(scoped ReadOnlySpan<char> text)
    {
        Ensure(Encoding.UTF8.GetMaxByteCount(text.Length));
        position += Encoding.UTF8.GetBytes(text, span[position..]);
    }

    /// <summary>Writes a value in its invariant UTF-8 form (numbers, dates).</summary>
    public void Write<T>(T value, ReadOnlySpan<char> format = default)
        where T : IUtf8SpanFormattable
    {
        Ensure(64);
        if (!value.TryFormat(span[position..], out int written, format, System.Globalization.CultureInfo.InvariantCulture))
        {
            throw new FormatException("Formatted value exceeds 64 bytes.");
        }

        position += written;
    }

    public void Flush()
    {
        output.Advance(position);
        position = 0;
        span = default;
    }

    private void Ensure(int count)
    {
        if (span.Length - position >= count)
        {
            return;
        }

        output.Advance(position);
        span = output.GetSpan(Math.Max(count, ChunkSize));
        position = 0;
    }
}
