thread t prio=1 prio=2 prog=loop
