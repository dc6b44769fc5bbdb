// SPDX-License-Identifier: GPL-2.0
/*
 * pentago_gpio: a simulated Raspberry Pi GPIO bank for the pentago-board bench VM, with build A's
 * reed switch diode matrix wired behind it.
 *
 * One gpiochip of 58 lines (a Pi 4's bank), line N being BCM GPIO N. The rows (module parameter
 * rows=, BCM numbers) are the lines the daemon drives low one at a time; the columns (cols=) are
 * inputs with pull-ups. A closed switch at (row r, column c) pulls column c low while row r is an
 * output driven low: the diode passes current only towards the row, so idle (high) rows and
 * any number of closed switches never make ghosts. Every other line reads the level the bench
 * sets (encoder contacts, buttons), high by default as the pull-ups hold it. An input whose
 * level changes raises an edge on its interrupt, so gpio-cdev's line events (what the
 * daemon's edge threads and its sleeping matrix wait for) work as on a Pi. The kernel's own gpio-sim cannot do this (its inputs follow
 * only a pull set from outside, never another line of the chip, so a scanned matrix reads
 * nothing through it), and Debian 12's kernel has neither gpio-sim nor the interrupt simulator
 * it is built on (CONFIG_GPIO_SIM, CONFIG_IRQ_SIM): the few lines of an interrupt simulator
 * this chip needs are here (an irq_work raises the pending lines' interrupts).
 *
 * The bench drives it through /sys/devices/platform/pentago_gpio/:
 *   switches     read or write the matrix, one '0'/'1' per crossing, row-major (rows x cols)
 *   switch       write "ROW COL 0|1" (BCM numbers) to open or close one switch
 *   level        write "LINE 0|1" to set the level of a line (an encoder contact, a button)
 *   row_writes   read: how many times a row line was driven (matrix scans x rows)
 */

#include <linux/bitmap.h>
#include <linux/gpio/driver.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>

#define NGPIO 58
#define MAX_SIDE 9

static int rows[MAX_SIDE];
static int n_rows;
module_param_array(rows, int, &n_rows, 0444);
MODULE_PARM_DESC(rows, "BCM numbers of the matrix row lines (driven low in turn)");
static int cols[MAX_SIDE];
static int n_cols;
module_param_array(cols, int, &n_cols, 0444);
MODULE_PARM_DESC(cols, "BCM numbers of the matrix column lines (read, pulled up)");

struct board {
	struct gpio_chip chip;
	struct irq_domain *irqs;
	struct irq_work irq_work;
	DECLARE_BITMAP(irq_unmasked, NGPIO);
	DECLARE_BITMAP(irq_pending, NGPIO);
	unsigned int irq_type[NGPIO];
	spinlock_t lock;
	DECLARE_BITMAP(is_out, NGPIO);
	DECLARE_BITMAP(driven, NGPIO);	/* the value of each output */
	DECLARE_BITMAP(level, NGPIO);	/* what an undriven line reads (bench-set) */
	DECLARE_BITMAP(seen, NGPIO);	/* what each input read last time, for edges */
	bool closed[MAX_SIDE][MAX_SIDE];
	signed char column_of[NGPIO];
	signed char row_of[NGPIO];
	atomic64_t row_writes;
	const char *names[NGPIO];
};

static struct platform_device *board_device;

/* The level a line reads now; the caller holds the lock. */
static int read_line(struct board *b, unsigned int line)
{
	int c = b->column_of[line], r;

	if (test_bit(line, b->is_out))
		return test_bit(line, b->driven);
	if (c >= 0)
		for (r = 0; r < n_rows; r++)
			if (b->closed[r][c] && test_bit(rows[r], b->is_out) &&
			    !test_bit(rows[r], b->driven))
				return 0;
	return test_bit(line, b->level);
}

/* Recompute every input; the lines that rose and fell go into @rises and @falls. Lock held. */
static void settle(struct board *b, unsigned long *rises, unsigned long *falls)
{
	unsigned int line;
	int now;

	bitmap_zero(rises, NGPIO);
	bitmap_zero(falls, NGPIO);
	for (line = 0; line < NGPIO; line++) {
		if (test_bit(line, b->is_out))
			continue;
		now = read_line(b, line);
		if (now != test_bit(line, b->seen)) {
			__assign_bit(line, b->seen, now);
			__set_bit(line, now ? rises : falls);
		}
	}
}

/* Raise the edges on the lines whose interrupt asks for them. Lock not held. */
static void fire(struct board *b, const unsigned long *edges, unsigned int wanted)
{
	unsigned int line;
	bool any = false;

	for_each_set_bit(line, edges, NGPIO) {
		if (test_bit(line, b->irq_unmasked) && (READ_ONCE(b->irq_type[line]) & wanted)) {
			set_bit(line, b->irq_pending);
			any = true;
		}
	}
	if (any)
		irq_work_queue(&b->irq_work);
}

/* The interrupt simulator: irq_work runs in hard interrupt context, as a GPIO interrupt would. */
static void board_irq_work(struct irq_work *work)
{
	struct board *b = container_of(work, struct board, irq_work);
	unsigned int line;

	for (line = 0; line < NGPIO; line++)
		if (test_and_clear_bit(line, b->irq_pending))
			generic_handle_domain_irq(b->irqs, line);
}

static void board_irq_mask(struct irq_data *d)
{
	struct board *b = irq_data_get_irq_chip_data(d);

	clear_bit(irqd_to_hwirq(d), b->irq_unmasked);
}

static void board_irq_unmask(struct irq_data *d)
{
	struct board *b = irq_data_get_irq_chip_data(d);

	set_bit(irqd_to_hwirq(d), b->irq_unmasked);
}

static int board_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct board *b = irq_data_get_irq_chip_data(d);

	if (type & ~IRQ_TYPE_EDGE_BOTH)
		return -EINVAL;	/* edges only, as gpio-cdev asks */
	WRITE_ONCE(b->irq_type[irqd_to_hwirq(d)], type);
	return 0;
}

static struct irq_chip board_irq_chip = {
	.name = "pentago-gpio-sim",
	.irq_mask = board_irq_mask,
	.irq_unmask = board_irq_unmask,
	.irq_set_type = board_irq_set_type,
};

static int board_irq_map(struct irq_domain *domain, unsigned int virq, irq_hw_number_t line)
{
	irq_set_chip_data(virq, domain->host_data);
	irq_set_chip_and_handler(virq, &board_irq_chip, handle_simple_irq);
	return 0;
}

static const struct irq_domain_ops board_irq_ops = { .map = board_irq_map };

static void board_irq_remove(void *data)
{
	struct board *b = data;
	unsigned int line;

	irq_work_sync(&b->irq_work);
	for (line = 0; line < NGPIO; line++)
		irq_dispose_mapping(irq_find_mapping(b->irqs, line));
	irq_domain_remove(b->irqs);
}

/* Apply @change under the lock, then raise the edges it made. */
#define CHANGE(b, change) do {						\
	DECLARE_BITMAP(rises, NGPIO);					\
	DECLARE_BITMAP(falls, NGPIO);					\
	unsigned long flags;						\
	spin_lock_irqsave(&(b)->lock, flags);				\
	change;								\
	settle((b), rises, falls);					\
	spin_unlock_irqrestore(&(b)->lock, flags);			\
	fire((b), rises, IRQ_TYPE_EDGE_RISING);				\
	fire((b), falls, IRQ_TYPE_EDGE_FALLING);			\
} while (0)

static int board_get(struct gpio_chip *gc, unsigned int line)
{
	struct board *b = gpiochip_get_data(gc);
	unsigned long flags;
	int value;

	spin_lock_irqsave(&b->lock, flags);
	value = read_line(b, line);
	spin_unlock_irqrestore(&b->lock, flags);
	return value;
}

static int board_get_multiple(struct gpio_chip *gc, unsigned long *mask, unsigned long *bits)
{
	struct board *b = gpiochip_get_data(gc);
	unsigned long flags;
	unsigned int line;

	spin_lock_irqsave(&b->lock, flags);
	for_each_set_bit(line, mask, NGPIO)
		__assign_bit(line, bits, read_line(b, line));
	spin_unlock_irqrestore(&b->lock, flags);
	return 0;
}

static void drive(struct board *b, unsigned int line, int value)
{
	__assign_bit(line, b->driven, value);
	if (b->row_of[line] >= 0)
		atomic64_inc(&b->row_writes);
}

static void board_set(struct gpio_chip *gc, unsigned int line, int value)
{
	struct board *b = gpiochip_get_data(gc);

	CHANGE(b, drive(b, line, value));
}

static void board_set_multiple(struct gpio_chip *gc, unsigned long *mask, unsigned long *bits)
{
	struct board *b = gpiochip_get_data(gc);
	unsigned int line;

	CHANGE(b, for_each_set_bit(line, mask, NGPIO) drive(b, line, test_bit(line, bits)));
}

static int board_direction_input(struct gpio_chip *gc, unsigned int line)
{
	struct board *b = gpiochip_get_data(gc);

	CHANGE(b, __clear_bit(line, b->is_out); __assign_bit(line, b->seen, read_line(b, line)));
	return 0;
}

static int board_direction_output(struct gpio_chip *gc, unsigned int line, int value)
{
	struct board *b = gpiochip_get_data(gc);

	CHANGE(b, drive(b, line, value); __set_bit(line, b->is_out));
	return 0;
}

static int board_get_direction(struct gpio_chip *gc, unsigned int line)
{
	struct board *b = gpiochip_get_data(gc);

	return test_bit(line, b->is_out) ? GPIO_LINE_DIRECTION_OUT : GPIO_LINE_DIRECTION_IN;
}

static int board_to_irq(struct gpio_chip *gc, unsigned int line)
{
	struct board *b = gpiochip_get_data(gc);

	return irq_create_mapping(b->irqs, line);
}

static int board_set_config(struct gpio_chip *gc, unsigned int line, unsigned long config)
{
	switch (pinconf_to_config_param(config)) {
	case PIN_CONFIG_BIAS_PULL_UP:	/* the pull-ups are part of the wiring */
	case PIN_CONFIG_BIAS_PULL_DOWN:
	case PIN_CONFIG_BIAS_DISABLE:
		return 0;
	default:	/* debounce and the rest: gpiolib falls back to software */
		return -ENOTSUPP;
	}
}

static ssize_t switches_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct board *b = dev_get_drvdata(dev);
	int r, c, n = 0;

	for (r = 0; r < n_rows; r++) {
		for (c = 0; c < n_cols; c++)
			buf[n++] = b->closed[r][c] ? '1' : '0';
		buf[n++] = '\n';
	}
	return n;
}

static ssize_t switches_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct board *b = dev_get_drvdata(dev);
	bool want[MAX_SIDE][MAX_SIDE] = {};
	int i = 0, n = 0;

	for (; i < count && n < n_rows * n_cols; i++) {
		if (buf[i] == '0' || buf[i] == '1') {
			want[n / n_cols][n % n_cols] = buf[i] == '1';
			n++;
		} else if (buf[i] != '\n' && buf[i] != ' ') {
			return -EINVAL;
		}
	}
	if (n != n_rows * n_cols)
		return -EINVAL;
	CHANGE(b, memcpy(b->closed, want, sizeof(want)));
	return count;
}
static DEVICE_ATTR_RW(switches);

static ssize_t switch_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct board *b = dev_get_drvdata(dev);
	unsigned int row, col, closed;

	if (sscanf(buf, "%u %u %u", &row, &col, &closed) != 3 || row >= NGPIO || col >= NGPIO ||
	    b->row_of[row] < 0 || b->column_of[col] < 0 || closed > 1)
		return -EINVAL;
	CHANGE(b, b->closed[b->row_of[row]][b->column_of[col]] = closed);
	return count;
}
static DEVICE_ATTR_WO(switch);

static ssize_t level_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct board *b = dev_get_drvdata(dev);
	unsigned int line, value;

	if (sscanf(buf, "%u %u", &line, &value) != 2 || line >= NGPIO || value > 1)
		return -EINVAL;
	CHANGE(b, __assign_bit(line, b->level, value));
	return count;
}
static DEVICE_ATTR_WO(level);

static ssize_t row_writes_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct board *b = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(&b->row_writes));
}
static DEVICE_ATTR_RO(row_writes);

static struct attribute *board_attrs[] = {
	&dev_attr_switches.attr, &dev_attr_switch.attr, &dev_attr_level.attr,
	&dev_attr_row_writes.attr, NULL,
};
ATTRIBUTE_GROUPS(board);

static int board_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct board *b;
	int i, err;

	b = devm_kzalloc(dev, sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	spin_lock_init(&b->lock);
	bitmap_fill(b->level, NGPIO);
	bitmap_fill(b->seen, NGPIO);
	memset(b->column_of, -1, sizeof(b->column_of));
	memset(b->row_of, -1, sizeof(b->row_of));
	for (i = 0; i < n_cols; i++)
		b->column_of[cols[i]] = i;
	for (i = 0; i < n_rows; i++)
		b->row_of[rows[i]] = i;
	for (i = 0; i < NGPIO; i++) {
		b->names[i] = devm_kasprintf(dev, GFP_KERNEL, "GPIO%d", i);
		if (!b->names[i])
			return -ENOMEM;
	}
	init_irq_work(&b->irq_work, board_irq_work);
	b->irqs = irq_domain_create_linear(NULL, NGPIO, &board_irq_ops, b);
	if (!b->irqs)
		return -ENOMEM;
	err = devm_add_action_or_reset(dev, board_irq_remove, b);
	if (err)
		return err;
	b->chip = (struct gpio_chip) {
		/* a Pi 4's bank's label: the daemon finds the Pi's header by it (cdev.PI_BANKS) */
		.label = "pinctrl-bcm2711", .parent = dev, .owner = THIS_MODULE,
		.base = -1, .ngpio = NGPIO, .names = b->names, .can_sleep = false,
		.get = board_get, .get_multiple = board_get_multiple,
		.set = board_set, .set_multiple = board_set_multiple,
		.direction_input = board_direction_input,
		.direction_output = board_direction_output,
		.get_direction = board_get_direction, .to_irq = board_to_irq,
		.set_config = board_set_config,
	};
	platform_set_drvdata(pdev, b);
	return devm_gpiochip_add_data(dev, &b->chip, b);
}

static struct platform_driver board_driver = {
	.driver = { .name = "pentago_gpio", .dev_groups = board_groups },
	.probe = board_probe,
};

static int __init board_init(void)
{
	int i, err;

	if (n_rows < 1 || n_cols < 1)
		return -EINVAL;
	for (i = 0; i < n_rows; i++)
		if (rows[i] < 0 || rows[i] >= NGPIO)
			return -EINVAL;
	for (i = 0; i < n_cols; i++)
		if (cols[i] < 0 || cols[i] >= NGPIO)
			return -EINVAL;
	err = platform_driver_register(&board_driver);
	if (err)
		return err;
	board_device = platform_device_register_simple("pentago_gpio", -1, NULL, 0);
	if (IS_ERR(board_device)) {
		platform_driver_unregister(&board_driver);
		return PTR_ERR(board_device);
	}
	return 0;
}

static void __exit board_exit(void)
{
	platform_device_unregister(board_device);
	platform_driver_unregister(&board_driver);
}

module_init(board_init);
module_exit(board_exit);
MODULE_DESCRIPTION("A simulated Pi GPIO bank with pentago-board build A's reed switch matrix");
MODULE_LICENSE("GPL");
