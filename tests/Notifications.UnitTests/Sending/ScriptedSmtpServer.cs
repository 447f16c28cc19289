using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Notifications.UnitTests.Sending;

/// <summary>
/// A loopback SMTP server for what smtp-sink cannot offer (SIZE, SMTPUTF8, CHUNKING): announces the given
/// extensions, accepts every transaction and records each command line and each message's data.
/// With <c>hangUpAfterData</c> it closes the connection where the reply to the message's end would go.
/// </summary>
internal sealed class ScriptedSmtpServer : IAsyncDisposable
{
    private readonly TcpListener listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource stop = new(TimeSpan.FromSeconds(30));
    private readonly string[] extensions;
    private readonly bool hangUpAfterData;
    private Task? serving;

    private ScriptedSmtpServer(string[] extensions, bool hangUpAfterData)
    {
        this.extensions = extensions;
        this.hangUpAfterData = hangUpAfterData;
    }

    public int Port => ((IPEndPoint)listener.LocalEndpoint).Port;

    public List<string> Commands { get; } = [];

    public List<string> Messages { get; } = [];

    public static ScriptedSmtpServer Start(bool hangUpAfterData = false, params string[] extensions)
    {
        var server = new ScriptedSmtpServer(extensions, hangUpAfterData);
        server.listener.Start();
        server.serving = server.ServeAsync(server.stop.Token);
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        await stop.CancelAsync();
        listener.Stop();
        if (serving is not null)
        {
            await serving.ContinueWith(_ => { }, TaskScheduler.Default);
        }

        stop.Dispose();
    }

    private async Task ServeAsync(CancellationToken ct)
    {
        using TcpClient client = await listener.AcceptTcpClientAsync(ct);
        await using NetworkStream stream = client.GetStream();
        using var reader = new StreamReader(stream, new UTF8Encoding(false), false, 1, leaveOpen: true);
        await ReplyAsync(stream, "220 scripted ESMTP", ct);
        while (await reader.ReadLineAsync(ct) is { } line)
        {
            Commands.Add(line);
            string verb = line.Split(' ')[0].ToUpperInvariant();
            string? reply = verb switch
            {
                "EHLO" => string.Join("\r\n", ["250-scripted", .. extensions.Select(e => "250-" + e), "250 HELP"]),
                "DATA" => "354 go ahead",
                "BDAT" => await ReadChunkAsync(reader, int.Parse(line.Split(' ')[1], CultureInfo.InvariantCulture), ct),
                "QUIT" => "221 bye",
                _ => "250 ok",
            };
            if (verb == "DATA")
            {
                await ReplyAsync(stream, reply!, ct);
                reply = await ReadDataAsync(reader, ct);
            }

            if (reply is null)
            {
                return; // hang up where the reply to the message's end would go
            }

            await ReplyAsync(stream, reply, ct);
        }
    }

    private async Task<string?> ReadDataAsync(StreamReader reader, CancellationToken ct)
    {
        var data = new StringBuilder();
        while (await reader.ReadLineAsync(ct) is { } line && line != ".")
        {
            data.Append(line).Append('\n');
        }

        Messages.Add(data.ToString());
        return hangUpAfterData ? null : "250 queued";
    }

    private async Task<string?> ReadChunkAsync(StreamReader reader, int size, CancellationToken ct)
    {
        char[] chunk = new char[size]; // the tests send ASCII only over BDAT, so one char is one byte
        await reader.ReadBlockAsync(chunk, ct);
        Messages.Add(new string(chunk).Replace("\r\n", "\n", StringComparison.Ordinal));
        return hangUpAfterData ? null : "250 queued";
    }

    private static Task ReplyAsync(NetworkStream stream, string reply, CancellationToken ct) =>
        stream.WriteAsync(Encoding.UTF8.GetBytes(reply + "\r\n"), ct).AsTask();
}
