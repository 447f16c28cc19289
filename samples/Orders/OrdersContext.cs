using Microsoft.EntityFrameworkCore;

namespace Notifications.Samples.Orders;

internal sealed class OrdersContext(DbContextOptions<OrdersContext> options) : DbContext(options)
{
    public DbSet<Order> Orders => Set<Order>();

    protected override void OnModelCreating(ModelBuilder modelBuilder) =>
        modelBuilder.Entity<Order>(order =>
        {
            order.ToTable(OrderTable.Name);
            order.Property(o => o.Id).HasColumnName("id");
            order.Property(o => o.Recipient).HasColumnName("recipient");
            order.Property(o => o.Item).HasColumnName("item");
        });
}
