using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using Notifications.Consumer.Channels.Email;
using SslHandshakeException = MailKit.Security.SslHandshakeException;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Consumer.Channels;

namespace Notifications.UnitTests.Sending;

/// <summary>
/// STARTTLS against a scripted loopback server (smtp-sink has no TLS): the certificate is self-signed, so
/// the client must stop at the handshake, not fall back to plain text with the credentials.
/// </summary>
public sealed class SmtpEmailSenderTlsTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)] // revocation checks off: the certificate is still validated
    public async Task SendAsync_StartTlsWithUntrustedCertificate_FailsTransientBeforeAuth(bool checkRevocation)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var serverDone = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        Task<List<string>> server = ServeStartTlsAsync(listener, serverDone.Token);
        var options = new SmtpOptions
        {
            Port = ((IPEndPoint)listener.LocalEndpoint).Port,
            Security = SmtpSecurity.StartTls,
            Username = "user",
            Password = "secret",
            CheckCertificateRevocation = checkRevocation,
        };

        SmtpSendException failure;
        await using (var sender = new SmtpEmailSender(options, NullLogger<SmtpEmailSender>.Instance))
        {
            var message = new EmailMessage(1, "user@example.test", "s", "b", false, DateTimeOffset.UnixEpoch);
            failure = await Assert.ThrowsAsync<SmtpSendException>(() => sender.SendAsync(message, CancellationToken.None));
        }

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.IsType<SslHandshakeException>(failure.InnerException);
        Assert.Equal(["EHLO localhost", "STARTTLS"], await server);
    }

    private static async Task<List<string>> ServeStartTlsAsync(TcpListener listener, CancellationToken ct)
    {
        var received = new List<string>();
        using TcpClient client = await listener.AcceptTcpClientAsync(ct);
        NetworkStream stream = client.GetStream();
        await stream.WriteAsync("220 scripted ESMTP\r\n"u8.ToArray(), ct);
        received.Add(await ReadLineAsync(stream, ct));
        await stream.WriteAsync("250-scripted\r\n250-STARTTLS\r\n250 AUTH PLAIN LOGIN\r\n"u8.ToArray(), ct);
        received.Add(await ReadLineAsync(stream, ct));
        await stream.WriteAsync("220 2.0.0 Ready to start TLS\r\n"u8.ToArray(), ct);

        using X509Certificate2 certificate = SelfSigned();
        await using var tls = new SslStream(stream);
        try
        {
            // With TLS 1.3 the server's side may complete before the client rejects the certificate.
            await tls.AuthenticateAsServerAsync(new SslServerAuthenticationOptions { ServerCertificate = certificate }, ct);
        }
        catch (Exception e) when (e is AuthenticationException or IOException)
        {
            // The client aborted the handshake, as it should.
        }

        return received;
    }

    // Byte by byte, so nothing past the line (the TLS hello) is consumed as text.
    private static async Task<string> ReadLineAsync(NetworkStream stream, CancellationToken ct)
    {
        var line = new StringBuilder();
        byte[] one = new byte[1];
        while (await stream.ReadAsync(one, ct) == 1 && one[0] != '\n')
        {
            if (one[0] != '\r')
            {
                line.Append((char)one[0]);
            }
        }

        return line.ToString();
    }

    private static X509Certificate2 SelfSigned()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        using X509Certificate2 ephemeral = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));
        return X509CertificateLoader.LoadPkcs12(ephemeral.Export(X509ContentType.Pfx), null);
    }
}
