! A Fortran program (libgfortran: its own I/O, timing and exit paths) against qemu-riscv64:
! matmul, formatted and internal I/O, a file written, read back and deleted in the directory
! of argument 1, cpu_time and system_clock, random_number from a fixed seed, and `stop 3`.
! Prints only what holds under any host's timing.
program fortran_use
  implicit none
  integer, parameter :: n = 40
  real(8), allocatable :: a(:,:), b(:,:), c(:,:)
  real :: t0, t1
  integer(8) :: c0, c1, rate
  integer :: i, j, u, seed_size, count
  integer, allocatable :: seed(:)
  real(8) :: r(3), v, total
  character(len=256) :: dir, tag, path
  character(len=24) :: buf

  call get_command_argument(1, dir)
  call get_command_argument(2, tag)
  call cpu_time(t0)
  call system_clock(c0, rate)
  allocate(a(n,n), b(n,n), c(n,n))
  do j = 1, n
    do i = 1, n
      a(i,j) = dble(i + 2*j) / n
      b(i,j) = dble(i - j) / n
    end do
  end do
  do i = 1, 20
    c = matmul(a, b) + c / 4
  end do
  write(*,'(A,ES24.16)') 'matmul sum: ', sum(c)
  write(*,'(A,3F12.5)') 'c(1,1) c(n,n) c(7,3): ', c(1,1), c(n,n), c(7,3)
  write(*,'(I5,I5.3,B10,O5,Z5,F9.3,ES12.4,EN12.3,L2)') 42, 7, 10, 64, 255, 3.14159, 1234.5678, 0.000123, .true.
  write(buf, '(I6.6,"-",F6.2)') 123, 9.876
  read(buf(8:13), *) v
  write(*,'(3A,F7.3)') 'internal: ', trim(buf), ' read back ', v

  path = trim(dir) // '/fortran_use_' // trim(tag) // '.txt'
  open(newunit=u, file=path, status='replace', action='write')
  do i = 1, 10
    write(u,'(I4,F12.5)') i, sqrt(dble(i))
  end do
  close(u)
  open(newunit=u, file=path, status='old', action='read')
  total = 0
  count = 0
  do
    read(u, *, end=10) i, v
    total = total + v
    count = count + 1
  end do
10 close(u, status='delete')
  write(*,'(A,I0,A,F12.6)') 'file lines: ', count, ' total: ', total

  call random_seed(size=seed_size)
  allocate(seed(seed_size))
  seed = 12345
  call random_seed(put=seed)
  call random_number(r)
  write(*,'(A,3F10.6)') 'random from a fixed seed: ', r

  call cpu_time(t1)
  call system_clock(c1)
  write(*,'(A,L2)') 'cpu_time advanced: ', t1 > t0
  write(*,'(A,L2)') 'system_clock did not go back: ', c1 >= c0
  write(0,'(A)') 'to stderr, unit 0'
  stop 3
end program
