using System.Text;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Contract;

public sealed class MessageSerializerTests
{
    [Fact]
    public void Serialize_ThenDeserialize_RoundTripsEveryField()
    {
        var message = new NotificationMessage(42, "a@example.com", "Grüße ✓", "line 1\nline 2", true,
            new DateTimeOffset(2026, 11, 21, 10, 0, 0, TimeSpan.Zero), new DateTimeOffset(2026, 11, 22, 10, 0, 0, TimeSpan.FromHours(2)));

        Assert.True(MessageSerializer.TryDeserialize(MessageSerializer.Serialize(message), out var back, out _));

        Assert.Equal(message, back);
    }

    [Fact]
    public void Serialize_Message_UsesTheCamelCaseWireNames()
    {
        string json = Encoding.UTF8.GetString(MessageSerializer.Serialize(
            new NotificationMessage(7, "a@example.com", "s", "b", false, DateTimeOffset.UnixEpoch, null)));

        Assert.StartsWith("{\"id\":7,\"recipient\":\"a@example.com\",\"subject\":\"s\",\"body\":\"b\",\"isHtml\":false,", json, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new byte[] { 0xC3, 0x28, 0xFF })]
    [InlineData(new byte[] { (byte)'{', (byte)'"', (byte)'i' })]
    [InlineData(new byte[] { (byte)'n', (byte)'u', (byte)'l', (byte)'l' })]
    [InlineData(new byte[] { (byte)'[', (byte)']' })]
    [InlineData(new byte[0])]
    public void TryDeserialize_Garbage_FalseWithReasonNoThrow(byte[] body)
    {
        Assert.False(MessageSerializer.TryDeserialize(body, out var message, out string? error));

        Assert.Null(message);
        Assert.StartsWith("undeserializable", error, StringComparison.Ordinal);
    }

    // A dead letter's row takes its id from here: never 0 for a body without one (issue 16, item 2).
    [Theory]
    [InlineData("{\"id\":42,\"recipient\":\"\"}", 42L)]
    [InlineData("{\"hello\":\"world\"}", null)]
    [InlineData("{\"id\":0}", null)]
    [InlineData("{\"id\":-3}", null)]
    [InlineData("{\"id\":\"7\"}", null)]
    [InlineData("[{\"id\":7}]", null)]
    [InlineData("{\"id\":7", null)]
    [InlineData("", null)]
    public void ReadId_AnyBody_PositiveIdOrNull(string body, long? expected)
    {
        Assert.Equal(expected, MessageSerializer.ReadId(System.Text.Encoding.UTF8.GetBytes(body)));
        Assert.Null(MessageSerializer.ReadId([0xC3, 0x28, 0xFF, 0x00]));
    }
}
